import { Title } from "../ui.tsx"

export const Settings = (_: { search?: string }) => (
  <section>
    <Title>Settings</Title>
  </section>
)
