import { Context } from "effect"

/** Whether spans go anywhere: the request path opens a span per operation only then (it costs nothing otherwise). */
export class Tracing extends Context.Reference<Tracing>()("Tracing", { defaultValue: () => ({ enabled: false }) }) {}
