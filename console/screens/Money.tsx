import { Title } from "../ui.tsx"

export const Money = (_: { search?: string }) => (
  <section>
    <Title>Money</Title>
  </section>
)
