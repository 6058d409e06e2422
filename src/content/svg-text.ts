/**
 * The text of an SVG file in whatever encoding it was saved. A browser reads a UTF-16 file by its
 * byte order mark, or by the encoding its XML declaration names, so the check must read the same
 * characters the browser would: a check that reads UTF-8 sees no `<script>` in a UTF-16 file.
 * Bytes that are not valid in the encoding are refused rather than replaced.
 */
export function svgText(bytes: Buffer): { text: string } | { reason: string } {
  const starts = (...head: number[]) => head.every((byte, i) => bytes[i] === byte);
  let encoding = 'utf-8';
  let skip = 0;
  if (starts(0xef, 0xbb, 0xbf)) skip = 3;
  else if (starts(0xff, 0xfe)) [encoding, skip] = ['utf-16le', 2];
  else if (starts(0xfe, 0xff)) [encoding, skip] = ['utf-16be', 2];
  // `<?` in UTF-16 without a byte order mark (XML 1.0, appendix F).
  else if (starts(0x3c, 0x00, 0x3f, 0x00)) encoding = 'utf-16le';
  else if (starts(0x00, 0x3c, 0x00, 0x3f)) encoding = 'utf-16be';
  else {
    const declared = /^<\?xml[^>]*?\sencoding\s*=\s*["']([A-Za-z0-9._:-]+)["']/.exec(
      bytes.toString('latin1', 0, 200),
    )?.[1];
    if (declared) encoding = declared;
  }
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  } catch {
    return { reason: `its encoding (${encoding}) is not one this build reads` };
  }
  try {
    return { text: decoder.decode(bytes.subarray(skip)) };
  } catch {
    return { reason: `it is not valid ${encoding} text` };
  }
}
