import { useState } from 'preact/hooks';

/** Formats the public file server can transcode to on download (`f=`). */
const PLAY_FORMATS = ['mp3', 'ogg', 'wav', 'flac'] as const;

/**
 * Plays a file from its public link (the file server answers ranges, so the browser seeks without
 * downloading it whole); "Format" asks the server to transcode on the way (`f=`) — which then
 * answers the whole file until a transcoded copy is cached.
 */
export function AudioPlayer(props: { uri: string; name: string }) {
  const [format, setFormat] = useState('');
  const src = format ? `${props.uri}${props.uri.includes('?') ? '&' : '?'}f=${format}` : props.uri;
  return (
    <div class="player">
      <audio controls preload="auto" src={src} aria-label={`Play ${props.name}`} />
      <label for="play-format">Format</label>
      <select id="play-format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
        <option value="">as stored</option>
        {PLAY_FORMATS.map((f) => (
          <option key={f} value={f}>
            {f}
          </option>
        ))}
      </select>
    </div>
  );
}
