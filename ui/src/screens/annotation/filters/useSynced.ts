/**
 * A form's draft of applied filters: edited freely, and put back to what is applied whenever that changes from
 * elsewhere (a chip removed, the URL changed), without remounting the form (its `<details>` stays open).
 */
import { useEffect, useState } from "react"

export const useSynced = <A>(applied: A): readonly [A, (next: A) => void] => {
  const [draft, setDraft] = useState(applied)
  const key = JSON.stringify(applied)
  useEffect(() => setDraft(applied), [key])
  return [draft, setDraft]
}
