import type { ComponentChildren } from 'preact';
import { fieldMessages, type Problem } from '../errors';

/**
 * A labelled form control with the API's messages for its field right under it; the control is
 * rendered by `children(id, describedBy)` so it can be an input, a select or a textarea.
 */
export function Field(props: {
  form: string;
  label: string;
  name: string;
  problem: Problem | null;
  hint?: string;
  children: (id: string, describedBy: string | undefined, invalid: boolean) => ComponentChildren;
}) {
  const id = `${props.form}-${props.name.replace(/[^a-z0-9_]/gi, '-')}`;
  const messages = fieldMessages(props.problem, props.name, true);
  const errId = messages.length ? `${id}-error` : undefined;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children(id, errId, messages.length > 0)}
      {props.hint && <small class="hint">{props.hint}</small>}
      {errId && (
        <p class="field-error" id={errId} data-field={props.name} role="alert">
          {messages.join(' ')}
        </p>
      )}
    </div>
  );
}

/** The messages of a problem that name no field shown in the form. */
export function ProblemBanner(props: { messages: string[]; title?: string }) {
  if (!props.messages.length) return null;
  return (
    <div class="problem" role="alert">
      {props.title && <strong>{props.title} </strong>}
      {props.messages.map((m) => (
        <span key={m}>{m} </span>
      ))}
    </div>
  );
}
