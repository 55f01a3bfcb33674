import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { splitSentences, type SentenceSpan } from '../../src/core/split-sentences'
import { SiftError } from '../../src/errors'

const texts = (spans: SentenceSpan[]) => spans.map((span) => span.text)

/** Every span must be exactly where it says it is. */
function expectExactOffsets(content: string, spans: SentenceSpan[]) {
  for (const span of spans) expect(content.slice(span.start, span.end)).toBe(span.text)
}

/** Positions in `text` where Intl.Segmenter('word') puts a boundary. */
function wordBoundaries(text: string): Set<number> {
  const boundaries = new Set<number>([text.length])
  for (const word of new Intl.Segmenter('en', { granularity: 'word' }).segment(text)) boundaries.add(word.index)
  return boundaries
}

describe('splitSentences', () => {
  it('splits English and keeps abbreviations, decimals and initialisms as ICU does', () => {
    const content = 'The price is 3.5 dollars, e.g. at the U.S.A. store! Did you pay? I did.'
    const spans = splitSentences(content)
    expect(texts(spans)).toEqual(['The price is 3.5 dollars, e.g. at the U.S.A. store!', 'Did you pay?', 'I did.'])
    expectExactOffsets(content, spans)
    expect(spans[1]).toEqual({ text: 'Did you pay?', start: 52, end: 64 })
  })

  it('keeps version numbers, times and file names inside a sentence', () => {
    expect(texts(splitSentences('Version 2.0.1 is out at 10.30 today. Open notes.txt now.'))).toEqual([
      'Version 2.0.1 is out at 10.30 today.',
      'Open notes.txt now.',
    ])
  })

  it('keeps a URL with a query string in one sentence', () => {
    const content = 'Visit https://example.com/search?q=a&b=c!x now. Then go.'
    expect(texts(splitSentences(content))).toEqual(['Visit https://example.com/search?q=a&b=c!x now.', 'Then go.'])
  })

  it('still ends a sentence at "?" or "!" followed by a space, or glued to CJK text', () => {
    expect(texts(splitSentences('Really? Yes! Fine.'))).toEqual(['Really?', 'Yes!', 'Fine.'])
    expect(texts(splitSentences('你好?我很好。'))).toEqual(['你好?', '我很好。'])
  })

  it('splits German', () => {
    const content = 'Das ist gut. Wie geht es dir? Mir geht es prima!'
    expect(texts(splitSentences(content, { locale: 'de' }))).toEqual([
      'Das ist gut.',
      'Wie geht es dir?',
      'Mir geht es prima!',
    ])
  })

  it('splits Chinese and Japanese without spaces', () => {
    expect(texts(splitSentences('今天天气很好。我们去公园吧！你觉得呢？'))).toEqual([
      '今天天气很好。',
      '我们去公园吧！',
      '你觉得呢？',
    ])
    expect(texts(splitSentences('今日は晴れです。公園に行きましょう！'))).toEqual([
      '今日は晴れです。',
      '公園に行きましょう！',
    ])
  })

  it('splits Arabic at its own question mark', () => {
    const content = 'مرحبا بك. كيف حالك؟ أنا بخير!'
    const spans = splitSentences(content)
    expect(texts(spans)).toEqual(['مرحبا بك.', 'كيف حالك؟', 'أنا بخير!'])
    expectExactOffsets(content, spans)
  })

  it('keeps text without punctuation as one trimmed sentence', () => {
    expect(splitSentences('  no punctuation here just words  ')).toEqual([
      { text: 'no punctuation here just words', start: 2, end: 32 },
    ])
  })

  it('breaks at line ends and drops whitespace-only pieces', () => {
    expect(texts(splitSentences('First line\nsecond line\n\n\n  third'))).toEqual([
      'First line',
      'second line',
      'third',
    ])
    expect(splitSentences('')).toEqual([])
    expect(splitSentences(' \n\t \u00a0\u3000 ')).toEqual([])
  })

  it('cuts a long sentence between words into chunks that fill up to maxChars', () => {
    const words = Array.from({ length: 120 }, (_, i) => `word${i}`)
    const content = `${words.join(' ')}.`
    const spans = splitSentences(content)
    expect(spans.length).toBeGreaterThan(1)
    expectExactOffsets(content, spans)
    expect(spans.map((span) => span.text).join(' ')).toBe(content)
    for (const [i, span] of spans.entries()) {
      expect(span.text.length).toBeLessThanOrEqual(250)
      expect(content[span.start - 1] ?? ' ').toBe(' ')
      expect(content[span.end] ?? ' ').toMatch(/[ .]/)
      const next = spans[i + 1]
      if (next) expect(next.text.split(' ')[0].length + 1 + span.text.length).toBeGreaterThan(250)
    }
  })

  it('cuts a long sentence without spaces at word boundaries', () => {
    const content = '我们明天早上一起去北京的公园散步然后吃午饭'.repeat(20)
    const spans = splitSentences(content, { maxChars: 50 })
    expectExactOffsets(content, spans)
    expect(spans.map((span) => span.text).join('')).toBe(content)
    const boundaries = wordBoundaries(content)
    for (const span of spans) {
      expect(span.text.length).toBeLessThanOrEqual(50)
      expect(boundaries.has(span.start)).toBe(true)
      expect(boundaries.has(span.end)).toBe(true)
    }
  })

  it('hard-cuts a single word longer than maxChars, never inside a surrogate pair', () => {
    expect(splitSentences('a'.repeat(600)).map((span) => [span.start, span.end])).toEqual([
      [0, 250],
      [250, 500],
      [500, 600],
    ])
    const gothic = '𐌰𐌱𐌲𐌳𐌴𐌵'.repeat(5)
    const spans = splitSentences(gothic, { maxChars: 5 })
    expect(spans.map((span) => span.text.length)).toEqual(Array(15).fill(4))
    expect(spans.map((span) => span.text).join('')).toBe(gothic)
    const emoji = '😀'.repeat(40)
    expect(splitSentences(emoji, { maxChars: 5 }).map((span) => span.text)).toEqual(Array(20).fill('😀😀'))
  })

  it('rejects maxChars below 2 or not an integer', () => {
    for (const maxChars of [1, 0, -3, 2.5, Number.NaN]) {
      expect(() => splitSentences('Hi.', { maxChars })).toThrow(SiftError)
    }
    expect(() => splitSentences('Hi.', { maxChars: 1 })).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(splitSentences('Hi there.', { maxChars: 2 }).every((span) => span.text.length <= 2)).toBe(true)
  })

  it('does not depend on the machine locale', () => {
    const content = 'Mr. Smith arrived. Dr. Who left. z. B. hier. 今天很好。'
    expect(splitSentences(content)).toEqual(splitSentences(content, { locale: 'en' }))
  })
})

const pieces = [
  ' ',
  '  ',
  '\n',
  '\n\n',
  '.',
  '. ',
  '? ',
  '!',
  '?x=1',
  '3.5',
  'e.g.',
  'Dr.',
  'word',
  'Satz',
  'über',
  '今天',
  '。',
  '公園に',
  '！',
  'مرحبا',
  '؟',
  'https://a.b/c?d=e',
  '😀',
  'x'.repeat(40),
  '\u00a0',
  '-',
  '？',
  '「',
  '」',
  '『引用』',
  '（注）',
  '“',
  '”',
  '„',
  '«',
  '»',
  'نعم',
  '، ',
  '۔',
  'خوبم',
  'नमस्ते',
  '। ',
  '॥',
  'สวัสดี',
  'ครับ ',
  ' ',
  'Ла',
  'ß',
]
const messages = fc.oneof(
  fc.array(fc.constantFrom(...pieces), { maxLength: 60 }).map((parts) => parts.join('')),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.string({ unit: 'grapheme', maxLength: 300 }),
)

describe('splitSentences across scripts', () => {
  const texts = (content: string) => splitSentences(content).map((span) => span.text)

  it('ends sentences at full-width 。！？, and moves an opening bracket to the sentence it opens', () => {
    expect(texts('明日は雨ですか？はい！「行きます。」（注）次の文')).toEqual([
      '明日は雨ですか？',
      'はい！',
      '「行きます。」',
      '（注）次の文',
    ])
    expect(texts('你去吗？太好了！他说：“我也去。”然后走了')).toEqual([
      '你去吗？',
      '太好了！',
      '他说：“我也去。”',
      '然后走了',
    ])
  })

  it('ends Arabic, Persian and Urdu sentences at ؟ and ۔ but not at the Arabic comma ،', () => {
    expect(texts('هل أنت بخير؟ نعم، أنا بخير. «هذا جميل.» قال')).toEqual([
      'هل أنت بخير؟',
      'نعم، أنا بخير.',
      '«هذا جميل.»',
      'قال',
    ])
    expect(texts('آیا خوبی؟ بله، خوبم.')).toEqual(['آیا خوبی؟', 'بله، خوبم.'])
    expect(texts('یہ اچھا ہے۔ وہ کہاں ہے؟')).toEqual(['یہ اچھا ہے۔', 'وہ کہاں ہے؟'])
  })

  it('ends Devanagari sentences at । and ॥', () => {
    expect(texts('मैं ठीक हूँ। आप कैसे हैं? बहुत अच्छा॥ धन्यवाद')).toEqual(['मैं ठीक हूँ।', 'आप कैसे हैं?', 'बहुत अच्छा॥', 'धन्यवाद'])
  })

  it('ends a Thai sentence at a space between Thai letters, not at a space beside other text', () => {
    expect(texts('วันนี้อากาศดีมาก ฉันจะไปตลาด คุณจะไปไหม')).toEqual(['วันนี้อากาศดีมาก', 'ฉันจะไปตลาด', 'คุณจะไปไหม'])
    expect(texts('ฉันชอบ iPhone 15 มาก')).toEqual(['ฉันชอบ iPhone 15 มาก'])
  })

  it('keeps a quoted question with its lowercase attribution, in quotes that say they close', () => {
    expect(texts('„Kommst du mit?“ fragte sie. »Nein.« Dann ging er.')).toEqual([
      '„Kommst du mit?“ fragte sie.',
      '»Nein.«',
      'Dann ging er.',
    ])
    expect(texts('Sie sagte: „Komm!“ Dann ging sie.')).toEqual(['Sie sagte: „Komm!“', 'Dann ging sie.'])
    expect(texts('«¿Vienes?» preguntó. Sí.')).toEqual(['«¿Vienes?» preguntó.', 'Sí.'])
    // An ASCII quote cannot say whether it opens or closes: as ICU splits it.
    expect(texts('They parted saying, "See you!" and left.')).toEqual(['They parted saying, "See you!"', 'and left.'])
  })
})

describe('splitSentences properties', () => {
  it('spans are exact, trimmed, non-empty, ordered, at most maxChars, and lose no visible character', () => {
    fc.assert(
      fc.property(messages, fc.integer({ min: 2, max: 60 }), (content, maxChars) => {
        const spans = splitSentences(content, { maxChars })
        let previousEnd = 0
        for (const span of spans) {
          expect(content.slice(span.start, span.end)).toBe(span.text)
          expect(span.text.length).toBeGreaterThan(0)
          expect(span.text.length).toBeLessThanOrEqual(maxChars)
          expect(span.text.trim()).toBe(span.text)
          expect(span.start).toBeGreaterThanOrEqual(previousEnd)
          expect(content.slice(previousEnd, span.start).trim()).toBe('')
          previousEnd = span.end
        }
        expect(content.slice(previousEnd).trim()).toBe('')
      }),
      { numRuns: 500 },
    )
  })

  it('never cuts a surrogate pair, and chunks stay inside the sentence they came from', () => {
    fc.assert(
      fc.property(messages, fc.integer({ min: 2, max: 60 }), (content, maxChars) => {
        const sentences = splitSentences(content, { maxChars: 1_000_000 })
        for (const span of splitSentences(content, { maxChars })) {
          expect(
            /^[\udc00-\udfff]/.test(content.slice(span.start)) && /[\ud800-\udbff]$/.test(content.slice(0, span.start)),
          ).toBe(false)
          expect(sentences.some((sentence) => sentence.start <= span.start && span.end <= sentence.end)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('is deterministic', () => {
    fc.assert(
      fc.property(messages, (content) => {
        expect(splitSentences(content, { maxChars: 20 })).toEqual(splitSentences(content, { maxChars: 20 }))
      }),
      { numRuns: 100 },
    )
  })
})
