/**
 * Global setup of the end-to-end journeys: builds the UI into dist/ui once, before any test file starts, and tells
 * the files (GLOSS_TEST_UI_BUILT, inherited by the workers) not to build it again. A build in every file would empty
 * dist/ui while another file's server, running in parallel, reads it.
 */
import { buildUi } from "../../ui/test/e2e/browser.js"

export default function setup() {
  buildUi()
  process.env["GLOSS_TEST_UI_BUILT"] = "1"
}
