/** The size of a JPEG from its frame header (SOF0-SOF15 but DHT, JPG and DAC), or undefined when it is not a JPEG. */
export const jpegSize = (b: Uint8Array): { width: number; height: number } | undefined => {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8 || b[2] !== 0xff) return undefined
  let i = 2
  while (i + 4 <= b.length) {
    if (b[i] !== 0xff) return undefined
    const marker = b[i + 1]
    if (marker === 0xff) {
      i++
      continue
    }
    // Markers without a length.
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      i += 2
      continue
    }
    if (marker === 0xd9 || marker === 0xda) return undefined
    const length = (b[i + 2] << 8) | b[i + 3]
    if (length < 2 || i + 2 + length > b.length) return undefined
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (length < 7) return undefined
      const height = (b[i + 5] << 8) | b[i + 6]
      const width = (b[i + 7] << 8) | b[i + 8]
      return width > 0 && height > 0 ? { width, height } : undefined
    }
    i += 2 + length
  }
  return undefined
}
