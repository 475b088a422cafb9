/**
 * Writes transports/http/raised.ts: for every operation, the domain errors its handler can fail with, read from the
 * handler's type (transports/http/operations.ts, HandlerErrors). The contract declares them from that file, OpenAPI
 * documents their codes, and the compiler checks the file still says what the handlers raise.
 * Run it (`npm run raised`) when the compiler says raised.ts is not what an operation raises.
 */
import { execFileSync } from "node:child_process"
import { writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { domainErrors } from "../engine/errors/index.ts"

const root = fileURLToPath(new URL("..", import.meta.url))
const table = `${root}transports/http/operations.ts`
const target = `${root}transports/http/raised.ts`

const config = ts.getParsedCommandLineOfConfigFile(
  `${root}tsconfig.json`,
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"))
    }
  }
)!
const program = ts.createProgram([table], config.options)
const checker = program.getTypeChecker()
const source = program.getSourceFile(table)!
const handlerErrors = checker
  .getExportsOfModule(checker.getSymbolAtLocation(source)!)
  .find((s) => s.name === "HandlerErrors")
if (handlerErrors === undefined) throw new Error("operations.ts exports no HandlerErrors")

const tagsOf = (operation: string, type: ts.Type): Array<string> => {
  const tags = new Set<string>()
  for (const member of type.isUnion() ? type.types : [type]) {
    if (member.flags & ts.TypeFlags.Never) continue
    const tag = member.getProperty("_tag")
    const tagType = tag && checker.getTypeOfSymbol(tag)
    if (tagType === undefined || !tagType.isStringLiteral() || !(tagType.value in domainErrors))
      throw new Error(`${operation} can fail with ${checker.typeToString(member)}, which is not a domain error class`)
    tags.add(tagType.value)
  }
  return [...tags].sort()
}

const raised: Array<[string, Array<string>]> = []
const groups = checker.getDeclaredTypeOfSymbol(handlerErrors)
for (const group of checker.getPropertiesOfType(groups)) {
  for (const endpoint of checker.getPropertiesOfType(checker.getTypeOfSymbol(group))) {
    const operation = `${group.name}.${endpoint.name}`
    raised.push([operation, tagsOf(operation, checker.getTypeOfSymbol(endpoint))])
  }
}
raised.sort(([a], [b]) => (a < b ? -1 : 1))

const text = `// Written by \`npm run raised\` (scripts/raised.ts) from what each operation's handler can fail with; the compiler
// checks it still says so (transports/http/operations.ts). Not edited by hand: change the handler or its service.
import type { DomainErrorTag } from "../../engine/errors/index.ts"

/** The domain errors each operation can answer with, by operation id: the contract declares them (errors.ts). */
// biome-ignore format: one operation a line
export const RAISED = {
${raised.map(([op, tags]) => `  ${JSON.stringify(op)}: [${tags.map((t) => JSON.stringify(t)).join(", ")}]`).join(",\n")}
} as const satisfies Record<string, ReadonlyArray<DomainErrorTag>>
`
const formatted = execFileSync(`${root}node_modules/.bin/biome`, ["format", `--stdin-file-path=${target}`], {
  input: text,
  encoding: "utf8"
})
writeFileSync(target, formatted)
console.log(`transports/http/raised.ts: ${raised.length} operations`)
