// Builds the demo once and serves dist-demo/ on a free localhost port for every e2e test file.
import type { TestProject } from 'vitest/node'
import { buildDemo, demoOutDir } from '../scripts/demo-build'
import { startStaticServer } from '../scripts/static-server'

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await buildDemo()
  const server = await startStaticServer({ root: demoOutDir, port: 0 })
  project.provide('baseUrl', server.url)
  return () => server.close()
}
