/**
 * Coordinates typed into a location: "52.3731, 4.8922" (both with at least two decimals, so house numbers
 * are never read as coordinates) or a geo: URI. Out-of-range pairs are ignored.
 */
export const coordinatesIn = (text: string): { lat: number; lon: number } | null => {
  const m = /(?:geo:)?(-?\d{1,2}\.\d{2,})\s*[,;]\s*(-?\d{1,3}\.\d{2,})/.exec(text)
  if (!m) return null
  const lat = Number(m[1])
  const lon = Number(m[2])
  return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null
}
