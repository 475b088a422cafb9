import { relative } from "node:path"
import type { Reporter, TestModule } from "vitest/node"

/**
 * A run passes only if every test in every collected file ran and passed: a skipped or todo test (marked skip or
 * todo, skipIf, ctx.skip(), or the rest of a file beside a test marked only) or a file that failed to load fails the
 * run, with what and why.
 */
export default class NoSkips implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const problems: Array<string> = []
    for (const m of modules) {
      const file = relative(process.cwd(), m.moduleId)
      const errors = m.errors()
      if (m.state() !== "passed" && errors.length > 0 && [...m.children.allTests()].length === 0) {
        problems.push(`${file}: did not load (${errors[0]?.message ?? m.state()})`)
      }
      for (const t of m.children.allTests()) {
        const r = t.result()
        if (r.state === "skipped" || r.state === "pending") {
          problems.push(`${file} > ${t.fullName}: ${r.state}${r.state === "skipped" && r.note ? ` (${r.note})` : ""}`)
        }
      }
    }
    if (problems.length === 0) return
    process.exitCode = 1
    process.stderr.write(
      `\nThe run fails: every test must run, and ${problems.length} did not:\n${problems.map((p) => `  ${p}`).join("\n")}\n\n`
    )
  }
}
