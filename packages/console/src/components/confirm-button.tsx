import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * A destructive action behind a second, explicit step: the first press asks ("Delete x?"), and only
 * the "Yes, delete" button that appears (focused, Escape or "Cancel" backs out) does it.
 */
export function ConfirmButton(props: { label: string; question: string; onConfirm: () => Promise<void> | void; disabled?: boolean; disabledReason?: string }) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) yes.current?.focus(); }, [asking]);
  if (!asking) {
    return <button type="button" class="danger" disabled={props.disabled} title={props.disabled ? props.disabledReason : undefined} onClick={() => setAsking(true)}>{props.label}</button>;
  }
  return (
    <span class="confirm" role="group" aria-label={props.question} onKeyDown={(e) => { if (e.key === 'Escape') setAsking(false); }}>
      <span>{props.question}</span>
      <button type="button" ref={yes} class="danger" onClick={async () => { setAsking(false); await props.onConfirm(); }}>Yes, {props.label.toLowerCase()}</button>
      <button type="button" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}
