// GET /images/{name}.png: answers with PNG bytes (a 1x1 pixel), not key:value pairs.
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

function fromBase64(text) {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const clean = text.replace(/=+$/, "");
  const bytes = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0, value = 0, index = 0;
  for (const char of clean) {
    value = (value << 6) | alphabet.indexOf(char);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (value >> bits) & 0xff;
    }
  }
  return bytes;
}

export default function logo({ name }) {
  return {
    FgResponseBody: fromBase64(PIXEL),
    FgResponseContentType: "image/png",
    FgResponseHeaders: { "Cache-Control": "public, max-age=3600", "Content-Disposition": `inline; filename="${name}.png"` },
  };
}
