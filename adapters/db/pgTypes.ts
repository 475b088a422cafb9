import pg from "pg"

// int8 (counts, event ids) as numbers; numeric stays text. Timestamps keep pg's Date parsing.
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as "text")) as pg.CustomTypesConfig["getTypeParser"]
}
