/** The boundary of a multipart Content-Type, or null. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : null;
}
