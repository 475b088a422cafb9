import { Effect } from "effect"
import { Customers } from "../../../engine/services/customers/Customers.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const customersHandlers = defineGroup(Api, "customers", (h) =>
  Effect.gen(function* () {
    const customers = yield* Customers
    return h
      .handle("list", ({ urlParams }) => customers.list(urlParams))
      .handle("create", ({ payload }) => customers.create(payload))
      .handle("import", ({ payload }) => customers.importCsv(payload.csv))
      .handle("get", ({ path }) => customers.get(path.id))
      .handle("update", ({ path, payload }) => customers.update(path.id, payload))
      .handle("erase", ({ path }) => customers.erase(path.id))
  })
)
