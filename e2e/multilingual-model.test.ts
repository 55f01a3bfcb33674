// A multilingual model self-hosted as docs/models.md says, in Chromium with the real workers: its folder served under
// /models/ from the page's own origin, beside the built demo, and createMemory given docs/models.md's
// multilingual-e5-small options. The model is the tiny BERT-shaped one the tests build (scripts/model/tiny-bert-model.ts;
// the real weights cannot be downloaded here): what is proved is the loading path (its q8 weights fetched from the
// origin, its WordPiece tokenizer reading Chinese, hybrid trusting its dense ranking), not the real model's quality.
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { demoOutDir } from '../scripts/demo-build'
import { MULTILINGUAL_E5_EMBEDDING, writeTinyBertModel } from '../scripts/model/tiny-bert-model'
import { type StaticServer, startStaticServer } from '../scripts/static-server'
import { foreignRequests, launchDemo, type DemoSession } from './launch-demo'

const MODEL = 'sift-test/tiny-multilingual-e5'

let site: string
let server: StaticServer
let session: DemoSession | undefined

/** The built demo with the model's folder added under models/, as an app's public/models/<id>/ is served. */
async function demoWithModel(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sift-e2e-multilingual-'))
  for (const entry of await readdir(demoOutDir)) {
    if (entry !== 'models') await symlink(join(demoOutDir, entry), join(root, entry))
  }
  await mkdir(join(root, 'models'))
  for (const entry of await readdir(join(demoOutDir, 'models')))
    await symlink(join(demoOutDir, 'models', entry), join(root, 'models', entry))
  writeTinyBertModel(join(root, 'models', MODEL))
  return root
}

beforeAll(async () => {
  site = await demoWithModel()
  server = await startStaticServer({ root: site, port: 0 })
})
afterAll(async () => {
  await server?.close()
  await rm(site, { recursive: true, force: true })
})
afterEach(async () => {
  await session?.close()
  session = undefined
})

describe('a self-hosted multilingual model in the browser', () => {
  test('loads from the origin in the model worker, and hybrid trusts its dense ranking with Chinese', async () => {
    session = await launchDemo({ baseUrl: server.url, webgpu: false })
    const result = await session.page.evaluate(
      async ({ model, embedding }) => {
        const memory = await window.sift.createMemory({
          name: 'e2e-multilingual',
          model,
          embedding,
        })
        await memory.add([
          { role: 'user', content: '我的妹妹住在上海，她是一名医生。' },
          { role: 'assistant', content: '上海是一个很大的城市。' },
          { role: 'user', content: '我每天早上喝咖啡。我的猫叫小白，它很喜欢睡觉。' },
        ])
        await memory.indexed()
        const stats = await memory.stats()
        const context = await memory.buildContext('我的猫叫什么名字？', { budget: 400 })
        return { stats, context }
      },
      { model: MODEL, embedding: MULTILINGUAL_E5_EMBEDDING },
    )

    expect(result.stats).toMatchObject({ model: MODEL, modelState: 'ready', pending: 0, backend: 'wasm' })
    const { stats, items } = result.context
    expect(stats).toMatchObject({ ranking: 'hybrid', backend: 'wasm', language: 'zh' })
    expect(stats.denseTrust).toBeUndefined()
    expect(items.find((item) => item.ranks?.dense === 1)?.text).toBe('我的猫叫小白，它很喜欢睡觉。')

    const modelFolder = `${server.url}/models/${MODEL}/`
    for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'])
      expect(session.requests).toContain(modelFolder + file)
    expect(foreignRequests(session.requests, server.url)).toEqual([])
  })
})
