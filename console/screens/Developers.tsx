import { Title } from "../ui.tsx"

export const Developers = (_: { search?: string }) => (
  <section>
    <Title>Developers</Title>
  </section>
)
