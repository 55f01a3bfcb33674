// The reference `npm run docs:api` builds (TypeDoc, typedoc.json) from the doc comments of the five entries' exports:
// every exported type, function and member says what it is, and every option its default (`@defaultValue`) and, for
// a number, its range (a `Range:` sentence), as docs/development.md, "Writing the docs", asks. A new option without
// them fails here, before a reader meets an undocumented field.
import { join } from 'node:path'
import {
  Application,
  Comment,
  type DeclarationReflection,
  type ProjectReflection,
  ReflectionKind,
  type SomeType,
  TypeDocReader,
} from 'typedoc'
import { beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

/** A member of a public type: an interface's property or method, or one of an inline object type's. */
interface Member {
  /** `MemoryOptions.embedding`, `BuildContextOptions.summary.maxShare`. */
  path: string
  reflection: DeclarationReflection
  /** Whether it is an option: a member of an `…Options` type, or of a type an option takes. */
  option: boolean
}

let app: Application
let project: ProjectReflection

beforeAll(async () => {
  app = await Application.bootstrap({ options: join(root, 'typedoc.json'), logLevel: 'Warn' }, [new TypeDocReader()])
  const converted = await app.convert()
  if (!converted) throw new Error('TypeDoc did not convert the entries (its errors are above)')
  project = converted
  app.validate(project)
}, 180_000)

/** The exported declarations of the entries, by full name (`sift-memory.Memory`). */
function declarations(): DeclarationReflection[] {
  const kinds =
    ReflectionKind.Interface |
    ReflectionKind.TypeAlias |
    ReflectionKind.Class |
    ReflectionKind.Function |
    ReflectionKind.Variable
  return project.getReflectionsByKind(kinds) as DeclarationReflection[]
}

function commentOf(reflection: DeclarationReflection): Comment | undefined {
  return reflection.comment ?? reflection.signatures?.[0]?.comment ?? reflection.getSignature?.comment
}

function summaryOf(reflection: DeclarationReflection): string {
  return Comment.combineDisplayParts(commentOf(reflection)?.summary).trim()
}

/** The object types a type is made of: an inline `{ … }`, each member of a union, an array's elements. */
function objectTypes(type: SomeType | undefined): DeclarationReflection[] {
  if (!type) return []
  if (type.type === 'reflection') return type.declaration.signatures ? [] : [type.declaration]
  if (type.type === 'union' || type.type === 'intersection') return type.types.flatMap(objectTypes)
  if (type.type === 'array' || type.type === 'optional') return objectTypes(type.elementType)
  return []
}

/**
 * The object types of this package a value of the type is made of, followed through unions and aliases, and arrays
 * when `arrays`: `TokenBudget` in `number | TokenBudget`, the members of `ForgetSelector`, `MessageInput` in
 * `MessageInput | MessageInput[]`.
 */
function inputTypes(type: SomeType | undefined, arrays: boolean): DeclarationReflection[] {
  if (!type) return []
  switch (type.type) {
    case 'reflection':
      return type.declaration.signatures ? [] : [type.declaration]
    case 'union':
    case 'intersection':
      return type.types.flatMap((member) => inputTypes(member, arrays))
    case 'optional':
      return inputTypes(type.elementType, arrays)
    case 'array':
      return arrays ? inputTypes(type.elementType, arrays) : []
    case 'reference': {
      const target = type.reflection as DeclarationReflection | undefined
      if (target?.kindOf(ReflectionKind.Interface)) return [target]
      return target?.kindOf(ReflectionKind.TypeAlias) ? inputTypes(target.type, arrays) : []
    }
    default:
      return []
  }
}

/** Whether a value of the type can be a number (through unions, aliases and `Options['field']`). */
function takesNumber(type: SomeType | undefined): boolean {
  if (!type) return false
  switch (type.type) {
    case 'intrinsic':
      return type.name === 'number'
    case 'union':
    case 'intersection':
      return type.types.some(takesNumber)
    case 'optional':
      return takesNumber(type.elementType)
    case 'reference': {
      const target = type.reflection as DeclarationReflection | undefined
      return target?.kindOf(ReflectionKind.TypeAlias) === true && takesNumber(target.type)
    }
    case 'indexedAccess': {
      const target = type.objectType.type === 'reference' ? type.objectType.reflection : undefined
      const key = type.indexType.type === 'literal' ? type.indexType.value : undefined
      const field = (target as DeclarationReflection | undefined)?.children?.find((child) => child.name === key)
      return takesNumber(field?.type)
    }
    default:
      return false
  }
}

/**
 * Every member of every exported interface, class and object type alias, and of the inline object types their members
 * take, once (an inherited member where it is declared, unless that type is not exported). Options are the members of
 * what an app passes in: the `…Options` interfaces and the types `Memory`'s methods take (`MessageInput`,
 * `ForgetSelector`'s members, `KeyChange`), and the object types an option takes itself (`TokenBudget` in `budget`,
 * `summary`'s `{ maxShare }`, `EmbeddingOptions`), not the items of an array it takes.
 */
function members(): Member[] {
  const found: Member[] = []
  const visited = new Set<DeclarationReflection>()
  const exported = declarations().filter(
    (declaration) => !declaration.kindOf(ReflectionKind.Function | ReflectionKind.Variable),
  )
  const memory = exported.find((declaration) => declaration.name === 'Memory')
  const inputs = [
    ...exported.filter((declaration) => /Options$/.test(declaration.name)),
    ...(memory?.children ?? []).flatMap((method) =>
      (method.signatures?.[0]?.parameters ?? []).flatMap((parameter) => inputTypes(parameter.type, true)),
    ),
  ]
  const walk = (owner: DeclarationReflection, path: string, option: boolean) => {
    if (visited.has(owner)) return
    visited.add(owner)
    for (const child of owner.children ?? []) {
      // The constructor, and what a class inherits from the platform (`Error`'s `message`, `stack`).
      if (child.kindOf(ReflectionKind.Constructor) || child.sources?.every(outsideSources)) continue
      const from = (child.inheritedFrom?.reflection as DeclarationReflection | undefined)?.parent
      if (from && exported.includes(from as DeclarationReflection)) continue
      const childPath = `${path}.${child.name}`
      found.push({ path: childPath, reflection: child, option })
      if (option) inputs.push(...inputTypes(child.type, false))
      else for (const inline of objectTypes(child.type)) walk(inline, childPath, false)
    }
  }
  // Inputs first: a type both an app passes in and the memory gives back (`ScoredSentence`) is checked as an input.
  for (let i = 0; i < inputs.length; i++) {
    const input = inputs[i]
    walk(input, input.kindOf(ReflectionKind.TypeLiteral) ? inlinePath(input) : input.name, true)
  }
  for (const declaration of exported) {
    if (declaration.kindOf(ReflectionKind.TypeAlias))
      for (const inline of objectTypes(declaration.type)) walk(inline, declaration.name, false)
    else walk(declaration, declaration.name, false)
  }
  return found
}

function outsideSources(source: { fullFileName: string }): boolean {
  return !source.fullFileName.startsWith(join(root, 'src'))
}

/** `BuildContextOptions.summary` for the `{ maxShare }` of its type, `ForgetSelector` for one of its members. */
function inlinePath(literal: DeclarationReflection): string {
  const names: string[] = []
  for (let at = literal.parent; at && !at.isProject(); at = at.parent)
    if (!at.kindOf(ReflectionKind.TypeLiteral | ReflectionKind.Module)) names.unshift(at.name)
  return names.join('.')
}

describe('the API reference (npm run docs:api)', () => {
  it('builds from the entries without a warning (links that resolve, every type it names exported)', () => {
    expect(app.logger.errorCount + app.logger.warningCount + app.logger.validationWarningCount).toBe(0)
    const names = declarations().map((declaration) => declaration.name)
    for (const name of [
      'createMemory',
      'Memory',
      'MemoryOptions',
      'BuildContextOptions',
      'Context',
      'ContextItem',
      'siftMemory',
      'SiftMemoryOptions',
      'useMemory',
      'UseMemoryOptions',
      'MemoryState',
    ])
      expect(names).toContain(name)
  })

  it('says what every exported type, function and constant is', () => {
    const undocumented = declarations()
      .filter((declaration) => summaryOf(declaration) === '')
      .map((declaration) => declaration.getFullName())
    expect(undocumented).toEqual([])
  })

  it('says what every member of the public types is', () => {
    const all = members()
    const undocumented = all.filter(({ reflection }) => summaryOf(reflection) === '').map(({ path }) => path)
    console.log(`[api reference] ${all.length} members, ${all.filter(({ option }) => option).length} of them options`)
    expect(undocumented).toEqual([])
  })

  it('gives every optional option its default, and every numeric option its range', () => {
    const missing: string[] = []
    for (const { path, reflection, option } of members()) {
      if (!option) continue
      const defaultValue = commentOf(reflection)?.getTag('@defaultValue')
      if (reflection.flags.isOptional && Comment.combineDisplayParts(defaultValue?.content).trim() === '')
        missing.push(`${path}: no @defaultValue`)
      if (takesNumber(reflection.type) && !/(^|\n)Range: \S/.test(summaryOf(reflection)))
        missing.push(`${path}: a number without a "Range:" paragraph`)
    }
    expect(missing).toEqual([])
  })
})
