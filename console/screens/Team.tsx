import { Title } from "../ui.tsx"

export const Team = (_: { search?: string }) => (
  <section>
    <Title>Team</Title>
  </section>
)
