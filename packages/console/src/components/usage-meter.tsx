/**
 * Usage against a quota, with the threshold (when set) as the meter's "high" mark: a native
 * <meter>, so it reads out as a value; the numbers are written beside it too.
 */
export function UsageMeter(props: {
  label: string;
  value: number;
  quota: number;
  threshold: number | null;
  format: (n: number) => string;
}) {
  const { value, quota, threshold } = props;
  return (
    <div class="usage">
      <span class="usage-label">{props.label}</span>
      <meter
        min={0}
        max={quota}
        value={value}
        high={threshold ?? undefined}
        optimum={0}
        aria-label={`${props.label} used`}
      >
        {value}
      </meter>
      <span class="usage-text">
        {props.format(value)} of {props.format(quota)}
        {threshold !== null && <> · threshold {props.format(threshold)}</>}
      </span>
    </div>
  );
}
