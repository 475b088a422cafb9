import { Title } from "../ui.tsx"

export const Guests = (_: { search?: string }) => (
  <section>
    <Title>Guests</Title>
  </section>
)
