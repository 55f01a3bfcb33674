import { readFile } from 'node:fs/promises'
import { parseHistory, type LoadedHistory, type LoadOptions } from './locomo-format'

/**
 * Reads and parses a history file for the CLI and the recall benchmark (see `parseHistory` in
 * tools/locomo/locomo-format.ts for the formats and every decision the parser makes).
 */
export async function readHistory(path: string, options: LoadOptions = {}): Promise<LoadedHistory> {
  const text = await readFile(path, 'utf8')
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new Error(`${path} is not valid JSON: ${(error as Error).message}`)
  }
  try {
    return parseHistory(data, options)
  } catch (error) {
    throw new Error(`${path}: ${(error as Error).message}`)
  }
}
