export type Busy = { starts_at: Date; ends_at: Date; quantity: number }

const RADIX = 2048

/** Positions of `keys` (non-negative integers) in ascending order; a stable LSD radix sort. */
export const ascendingOrder = (keys: Float64Array): Uint32Array => {
  const n = keys.length
  let order = new Uint32Array(n)
  let spare = new Uint32Array(n)
  const digits = new Uint16Array(n)
  const counts = new Uint32Array(RADIX)
  let largest = 0
  for (let i = 0; i < n; i++) (order[i] = i), (largest = Math.max(largest, keys[i]))
  for (let unit = 1; unit <= largest; unit *= RADIX) {
    counts.fill(0)
    for (let i = 0; i < n; i++) counts[(digits[i] = Math.floor(keys[i] / unit) % RADIX)]++
    for (let d = 1; d < RADIX; d++) counts[d] += counts[d - 1]
    for (let k = n - 1; k >= 0; k--) spare[--counts[digits[order[k]]]] = order[k]
    ;[order, spare] = [spare, order]
  }
  return order
}

/**
 * Stretches of constant positive load within [from, to), each busy interval widened by `pad` ms on
 * both sides. An edge's key is 2·(ms after `from`), +1 for an opening, so closings sort first at a tie.
 */
const loadSteps = (busy: ReadonlyArray<Busy>, pad: number, from: number, to: number) => {
  const keys = new Float64Array(2 * busy.length)
  const deltas = new Float64Array(2 * busy.length)
  let edges = 0
  for (const b of busy) {
    const open = Math.max(b.starts_at.getTime() - pad, from)
    const close = Math.min(b.ends_at.getTime() + pad, to)
    if (b.quantity <= 0 || close <= open) continue
    keys[edges] = 2 * (open - from) + 1
    deltas[edges++] = b.quantity
    keys[edges] = 2 * (close - from)
    deltas[edges++] = -b.quantity
  }
  const starts = new Float64Array(edges)
  const ends = new Float64Array(edges)
  const levels = new Float64Array(edges)
  let count = 0
  let level = 0
  let since = from
  for (const i of ascendingOrder(keys.subarray(0, edges))) {
    const at = from + Math.floor(keys[i] / 2)
    if (level > 0 && at > since) (starts[count] = since), (ends[count] = at), (levels[count++] = level)
    level += deltas[i]
    since = at
  }
  return { count, starts, ends, levels }
}

/**
 * Peak load over each time [start, start + length); `starts` ascending.
 * A sliding-window maximum over the load steps, linear after the sort.
 */
export const peakLoads = (
  busy: ReadonlyArray<Busy>,
  pad: number,
  starts: ReadonlyArray<number>,
  length: number
): Array<number> => {
  if (starts.length === 0) return []
  const steps = loadSteps(busy, pad, starts[0], starts[starts.length - 1] + length)
  const queue = new Int32Array(steps.count)
  let head = 0
  let tail = 0
  let next = 0
  return starts.map((start) => {
    const end = start + length
    while (next < steps.count && steps.starts[next] < end) {
      while (tail > head && steps.levels[queue[tail - 1]] <= steps.levels[next]) tail--
      queue[tail++] = next++
    }
    while (tail > head && steps.ends[queue[head]] <= start) head++
    return tail > head ? steps.levels[queue[head]] : 0
  })
}

/**
 * Peak load over each time [starts[i], ends[i]) when lengths differ (rental periods of whole local days). The load
 * steps are disjoint and in order, so each time finds its first step by bisection and reads only those it overlaps.
 */
export const peakLoadsUntil = (
  busy: ReadonlyArray<Busy>,
  pad: number,
  starts: ReadonlyArray<number>,
  ends: ReadonlyArray<number>
): Array<number> => {
  if (starts.length === 0) return []
  const steps = loadSteps(busy, pad, Math.min(...starts), Math.max(...ends))
  return starts.map((start, i) => {
    let [lo, hi] = [0, steps.count]
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (steps.ends[mid] <= start) lo = mid + 1
      else hi = mid
    }
    let peak = 0
    for (let k = lo; k < steps.count && steps.starts[k] < ends[i]; k++) peak = Math.max(peak, steps.levels[k])
    return peak
  })
}
