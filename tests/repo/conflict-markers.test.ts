// A merge that left its conflict markers in a tracked file (a document most of all, which no compiler reads) fails
// here rather than reaching a reader.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

const root = fileURLToPath(new URL('../../', import.meta.url))

it('no tracked file holds a merge conflict marker', () => {
  const listed = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
  const marked = listed
    .filter((file) => !file.endsWith('package-lock.json'))
    .filter((file) => /^(<{7} |>{7} |={7}$)/m.test(readFileSync(path.join(root, file), 'utf8')))
  expect(marked).toEqual([])
})
