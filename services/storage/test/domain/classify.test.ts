import { classify, contentFormat, extensionForMime, mimeFromName, sniff } from '../../src/domain/classify';

const bytes = (...b: number[]) => Buffer.from(b);

describe('content sniffing', () => {
  test('magic bytes name the format; nothing for empty or unknown content', () => {
    expect(sniff(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toEqual({ mime: 'audio/x-wav', format: 'wav' });
    expect(sniff(Buffer.from('ID3\x03'))).toEqual({ mime: 'audio/mpeg', format: 'mp3' });
    expect(sniff(bytes(0xff, 0xfb, 0x90, 0x00))).toEqual({ mime: 'audio/mpeg', format: 'mp3' });
    expect(sniff(Buffer.from('MZ\x90\0'))).toEqual({ mime: 'application/x-msdownload', format: 'exe' });
    expect(sniff(Buffer.from('%PDF-1.7'))?.format).toBe('pdf');
    expect(sniff(Buffer.alloc(0))).toBeUndefined();
    expect(sniff(Buffer.from('plain words'))).toBeUndefined();
  });
});

describe('classification', () => {
  test('strongest evidence first: content, then the extension, then the mime type', () => {
    expect(classify({ sniffedMime: 'audio/ogg', name: 'notes.txt', mimeType: 'text/plain' })).toBe('media');
    expect(classify({ name: 'notes.txt', mimeType: 'audio/ogg' })).toBe('document');
    expect(classify({ mimeType: 'application/zip' })).toBe('archive');
    expect(classify({ name: 'bundle.7z' })).toBe('archive');
    expect(classify({ name: 'x.unknownext' })).toBe('unknown');
  });

  test('an executable is one whatever else is said (a renamed .exe, a script by its content)', () => {
    expect(classify({ sniffedMime: 'application/x-msdownload', name: 'song.mp3', mimeType: 'audio/mpeg' })).toBe(
      'executable',
    );
    expect(classify({ name: 'install.sh', mimeType: 'text/plain' })).toBe('executable');
    expect(classify({ sniffedMime: 'text/x-shellscript' })).toBe('executable');
  });
});

describe('names, mime types and formats', () => {
  test('telephony audio by extension first, then the mime table', () => {
    expect(mimeFromName('greeting.ULAW')).toBe('audio/basic');
    expect(mimeFromName('a.g722')).toBe('audio/G722');
    expect(mimeFromName('doc.pdf')).toBe('application/pdf');
    expect(mimeFromName('noext')).toBeUndefined();
    expect(extensionForMime('audio/basic')).toBe('ul');
    expect(extensionForMime('audio/wav')).toBe('wav');
    expect(extensionForMime('application/pdf')).toBe('pdf');
  });

  test('content_format: sniffed, else the extension, else from the mime type, else null', () => {
    expect(contentFormat({ sniffedFormat: 'wav', name: 'x.mp3' })).toBe('wav');
    expect(contentFormat({ name: 'x.MP3' })).toBe('mp3');
    expect(contentFormat({ mimeType: 'audio/mpeg' })).toBe('mp3');
    expect(contentFormat({})).toBeNull();
  });
});
