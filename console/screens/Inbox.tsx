import { Title } from "../ui.tsx"

export const Inbox = (_: { search?: string }) => (
  <section>
    <Title>Inbox</Title>
  </section>
)
