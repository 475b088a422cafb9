import { Effect } from "effect"
import { Public } from "../../../engine/services/public/Public.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const publicHandlers = defineGroup(Api, "public", (h) =>
  Effect.map(Public, (pub) =>
    h
      .handle("org", ({ headers }) => pub.org(headers.origin))
      .handle("offerings", ({ headers }) => pub.list(headers.origin))
      .handle("offering", ({ path, headers }) => pub.get(path.id, headers.origin))
      .handle("availability", ({ path, urlParams, headers }) => pub.times(path.id, urlParams, headers.origin))
      .handle("book", ({ payload, headers }) => pub.book(payload, headers.origin))
      .handle("quote", ({ payload, headers }) => pub.quote(payload, headers.origin))
      .handle("wait", ({ payload, headers }) => pub.wait(payload, headers.origin))
      .handle("buy_gift_card", ({ payload, headers }) => pub.buyGiftCard(payload, headers.origin))
      .handle("ask", ({ payload, headers }) => pub.ask(payload, headers.origin))
  )
)
