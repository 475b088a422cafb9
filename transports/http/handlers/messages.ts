import { Effect } from "effect"
import { Messages } from "../../../engine/services/messages/Messages.ts"
import { Api } from "../Api.ts"
import { defineGroup } from "./define.ts"

export const messagesHandlers = defineGroup(Api, "messages", (h) =>
  Effect.map(Messages, (messages) =>
    h
      .handle("list", ({ urlParams }) => messages.list(urlParams))
      .handle("send", ({ payload }) => messages.send(payload))
  )
)
