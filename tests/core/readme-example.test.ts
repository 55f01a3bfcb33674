// docs/setup.md, "Use it in your app", shows examples/chat's vite.config.ts and src/chat-turn.ts in full: the example
// is what e2e/package-install.test.ts installs from the tarball and runs, so the guide's lines are the ones proven.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
const setupBlocks = [...readFileSync(join(root, 'docs', 'setup.md'), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map(
  (match) => match[1],
)

describe('docs/setup.md, "Use it in your app"', () => {
  it.each(['examples/chat/vite.config.ts', 'examples/chat/src/chat-turn.ts'])(
    'shows %s exactly as the example has it',
    (file) => {
      expect(setupBlocks).toContain(readFileSync(join(root, file), 'utf8'))
    },
  )
})
