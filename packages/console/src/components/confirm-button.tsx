import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { onAsync } from '../on-async';

/**
 * A destructive action behind a second, explicit step: the first press asks ("Delete x?"), and only
 * the "Yes, delete" button that appears (focused; Escape or "Cancel" backs out, focus returning to
 * the first button) does it.
 */
export function ConfirmButton(props: {
  label: string;
  question: string;
  onConfirm: () => Promise<void> | void;
  disabled?: boolean;
  disabledReason?: string;
}) {
  const [asking, setAsking] = useState(false);
  const touched = useRef(false);
  const yes = useRef<HTMLButtonElement>(null);
  const first = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    if (asking) yes.current?.focus();
    else if (touched.current) first.current?.focus();
  }, [asking]);
  const ask = (on: boolean) => {
    touched.current = true;
    setAsking(on);
  };
  if (!asking) {
    return (
      <button
        type="button"
        ref={first}
        class="danger"
        disabled={props.disabled}
        title={props.disabled ? props.disabledReason : undefined}
        onClick={() => ask(true)}
      >
        {props.label}
      </button>
    );
  }
  return (
    <span
      class="confirm"
      role="group"
      aria-label={props.question}
      onKeyDown={(e) => {
        if (e.key === 'Escape') ask(false);
      }}
    >
      <span>{props.question}</span>
      <button
        type="button"
        ref={yes}
        class="danger"
        onClick={onAsync(async () => {
          touched.current = false;
          setAsking(false);
          await props.onConfirm();
        })}
      >
        Yes, {props.label.toLowerCase()}
      </button>
      <button type="button" onClick={() => ask(false)}>
        Cancel
      </button>
    </span>
  );
}
