import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { fieldMessages, type Problem } from '../errors';

/**
 * A labelled form control with the API's messages for its field right under it; the control is
 * rendered by `children(id, describedBy)` so it can be an input, a select or a textarea. Once the
 * value is edited the messages go (they were about the value sent); the next answer brings its own.
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
  // The problem whose messages the person has since answered by editing the value.
  const [edited, setEdited] = useState<Problem | null>(null);
  const messages =
    props.problem !== null && edited === props.problem ? [] : fieldMessages(props.problem, props.name, true);
  const errId = messages.length ? `${id}-error` : undefined;
  const answered = () => {
    if (props.problem && edited !== props.problem) setEdited(props.problem);
  };
  return (
    <div class="field" onInput={answered} onChange={answered}>
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
