import { render } from "preact"
import { App } from "./App.tsx"
import { followLinks } from "./router.ts"

followLinks()
render(<App />, document.getElementById("app")!)
