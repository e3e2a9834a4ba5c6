import { useState } from 'preact/hooks';
import { onAsync } from '../on-async';

/** Copies a public link to the clipboard (or, where the page may not, selects it to copy by hand). */
export function CopyLink(props: { uri: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'manual'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.uri);
      setState('copied');
    } catch {
      setState('manual');
    }
    setTimeout(() => setState('idle'), 4000);
  };
  return (
    <>
      <button type="button" onClick={onAsync(copy)} data-uri={props.uri}>
        Copy link
      </button>
      {state === 'copied' && (
        <span role="status" class="note">
          Copied
        </span>
      )}
      {state === 'manual' && (
        <input class="manual-copy" readOnly value={props.uri} aria-label="Public link" ref={(el) => el?.select()} />
      )}
    </>
  );
}
