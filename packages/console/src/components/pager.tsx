/** Previous / next buttons over a list's pagination links, with what the page shows. */
export function Pager(props: {
  label: string;
  hasPrevious: boolean;
  hasNext: boolean;
  onPrevious: () => void;
  onNext: () => void;
  busy?: boolean;
  status: string;
}) {
  return (
    <nav class="pager" aria-label={props.label}>
      <button type="button" disabled={!props.hasPrevious || props.busy} onClick={props.onPrevious}>
        ← Previous
      </button>
      <span class="page-status" aria-live="polite">
        {props.status}
      </span>
      <button type="button" disabled={!props.hasNext || props.busy} onClick={props.onNext}>
        Next →
      </button>
    </nav>
  );
}
