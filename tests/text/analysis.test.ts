import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { detectLanguage, sentenceLanguages } from '../../worker/text/language-detection'
import { rulesFor } from '../../worker/text/language-rules'
import {
  contentTermCount,
  contentTerms,
  contentWords,
  indexTerms,
  normalizeSentence,
  queryTerms,
  withoutWords,
  words,
} from '../../worker/text/text-analysis'

describe('words', () => {
  it('are runs of letters, marks and digits in any script, normalised after they are found', () => {
    expect(words("Wow, Mel's café — 3 days!")).toEqual(['wow', 'mel', 's', 'café', '3', 'days'])
    expect(words('Grüße aus Zürich, 2024')).toEqual(['grüsse', 'aus', 'zürich', '2024'])
    // Lowercasing never splits a word: the capital İ lowercases to i and a combining dot.
    expect(words('İstanbul')).toEqual(['i̇stanbul'])
    expect(words('… !!')).toEqual([])
  })

  it('keep a Devanagari or Arabic word whole, vowel signs and harakat with their letters', () => {
    expect(words('मेरा नाम रमेश है।')).toEqual(['मेरा', 'नाम', 'रमेश', 'है'])
    expect(words('الْمَدْرَسَةُ كبيرة، أليس كذلك؟')).toEqual(['الْمَدْرَسَةُ', 'كبيرة', 'أليس', 'كذلك'])
  })

  it('split unspaced scripts by dictionary: Chinese, Japanese, Thai', () => {
    expect(words('上个月刚在七宝买了一套老房子')).toEqual([
      '上个',
      '月',
      '刚',
      '在',
      '七宝',
      '买',
      '了',
      '一套',
      '老',
      '房子',
    ])
    expect(words('福岡で初マラソンに挑戦')).toEqual(['福岡', 'で', '初', 'マラソン', 'に', '挑戦'])
    expect(words('วันนี้อากาศดีมาก')).toEqual(['วัน', 'นี้', 'อากาศ', 'ดี', 'มาก'])
    expect(words('Ich war in 東京 2024')).toEqual(['ich', 'war', 'in', '東京', '2024'])
  })

  it('are NFKC-normalised and case-folded, so full-width and composed spellings meet their plain ones', () => {
    expect(words('ＡＢＣ１２３ ﬁne')).toEqual(['abc123', 'fine'])
    expect(words('cafe\u0301')).toEqual(words('café'))
    expect(words('ΟΔΟΣ οδος')).toEqual(['οδοσ', 'οδοσ'])
    expect(words('STRASSE Straße')).toEqual(['strasse', 'strasse'])
  })

  it('normalizeSentence is the words joined by single spaces', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(normalizeSentence(text)).toBe(words(text).join(' '))
      }),
    )
  })

  it('withoutWords removes the given words with their possessive and leaves the rest as it was', () => {
    const names = new Set(['melanie'])
    expect(withoutWords("What is Melanie's hobby, MELANIE’s?", names)).toBe('What is  hobby, ?')
    const text = 'Melanies and Mel stay.'
    expect(withoutWords(text, names)).toBe(text)
  })
})

describe('terms in each language', () => {
  it('content words leave out the language’s stop words; terms are their stems, each once', () => {
    expect(contentWords('What did she paint at the lake?', 'en')).toEqual(['paint', 'lake'])
    expect(contentTermCount('Yes, the second one!', 'en')).toBe(3)
    expect(contentTerms('Paintings, painted, painting: she paints.', 'en')).toEqual(new Set(['paint']))
    expect(contentWords('Wo wohnt die Familie meines Bruders?', 'de')).toEqual(['wohnt', 'familie', 'bruders'])
  })

  it('fold a word’s inflections into one term with the language’s stemmer', () => {
    const meet = (language: string, forms: string[]) => {
      // The first term is the stem; German and Swedish words add their character grams after it.
      for (const form of forms) expect(indexTerms(form, language)[0]).toEqual(indexTerms(forms[0], language)[0])
    }
    meet('de', ['Wohnung', 'Wohnungen'])
    meet('de', ['Bruder', 'Bruders'])
    meet('fr', ['appartement', 'appartements'])
    meet('es', ['casa', 'casas'])
    meet('it', ['farmacia', 'farmacie'])
    meet('ru', ['марафон', 'марафона', 'марафоне'])
    meet('uk', ['лікар', 'лікаря', 'лікарем'])
    meet('ar', ['المكتب', 'مكتب', 'مكتبي'])
    meet('hi', ['किताब', 'किताबें'])
    meet('sv', ['bilen', 'bilar'])
    // Japanese's segmentation gives 行き, 行っ and 行く as words of 行きました, 行った and 行く.
    expect(['行き', '行っ', '行く'].map(rulesFor('ja').stem)).toEqual(['行', '行', '行'])
    meet('ko', ['학원비는', '학원비로'])
  })

  it('add character 4-grams, marks dropped, to the words of a compounding language, and only there', () => {
    expect(indexTerms('Yogakurs', 'de')).toEqual(['yogakur', '#yoga', '#ogak', '#gaku', '#akur', '#kurs'])
    expect(indexTerms('Kurs', 'de')).toContain('#kurs')
    expect(indexTerms('Hausärztin', 'de')).toContain('#arzt')
    expect(indexTerms('Hausarztpraxis', 'de')).toContain('#arzt')
    expect(indexTerms('Yogakurs', 'nl').some((term) => term.startsWith('#'))).toBe(true)
    for (const language of ['en', 'fr', 'ru', undefined])
      expect(indexTerms('Yogakurs boathouse', language).some((term) => term.startsWith('#'))).toBe(false)
  })

  it('drop accents the language writes or leaves out (cafe / café), not letters of their own', () => {
    expect(indexTerms('café', 'fr')).toEqual(indexTerms('cafe', 'fr'))
    expect(indexTerms('José', 'es')).toEqual(indexTerms('Jose', 'es'))
    expect(indexTerms('año', 'es')).not.toEqual(indexTerms('ano', 'es'))
    expect(indexTerms('ёлка', 'ru')).toEqual(indexTerms('елка', 'ru'))
    expect(indexTerms('łóżko', 'pl')).not.toEqual(indexTerms('lozko', 'pl'))
  })

  it('make overlapping character pairs of Chinese, Japanese and Korean words, so a compound meets its parts', () => {
    expect(indexTerms('운전학원', 'ko')).toEqual(['운전', '전학', '학원'])
    expect(indexTerms('학원비는', 'ko')).toEqual(['학원', '원비'])
    expect(indexTerms('装修公司', 'zh')).toEqual(['装修', '公司'])
    expect(indexTerms('给我们做装修的是哪家公司', 'zh')).toEqual(expect.arrayContaining(['装修', '公司']))
    expect(indexTerms('上个月', 'zh')).toEqual(['上个', '月'])
  })

  it('a query is searched by its content terms, or by all its terms when it has none', () => {
    expect(queryTerms('What did Melanie paint?', 'en')).toEqual(['melani', 'paint'])
    expect(queryTerms('Who is it?', 'en')).toEqual(['who', 'is', 'it'])
  })

  it('a language without rules keeps its words as they are', () => {
    expect(rulesFor('xx').stem('gatos')).toBe('gatos')
    expect(indexTerms('Gatos y perros', undefined)).toEqual(['gatos', 'y', 'perros'])
  })
})

describe('detectLanguage', () => {
  it.each([
    ['In welchem Jahr wurde das Haus gebaut?', 'de'],
    ['Où se trouve la crèche de notre fille ?', 'fr'],
    ['Вчора я був у магазині і купив нові черевики.', 'uk'],
    ['Вчера я был в магазине и купил новые ботинки.', 'ru'],
    ['دیروز به فروشگاه رفتم و برای پسرم کفش نو خریدم.', 'fa'],
    ['في أي حي يقع المكتب الذي أعمل فيه؟', 'ar'],
    ['मेरा नाम रमेश है और मैं जयपुर में रहता हूँ।', 'hi'],
    ['给我们做装修的是哪家公司？', 'zh'],
    ['福岡で初マラソンに挑戦しました。', 'ja'],
    ['부평에서 운전면허 따고 첫 차 사기', 'ko'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language)
  })

  it('prefers a likely language the detector scores close to its pick, not one it scores far below', () => {
    expect(detectLanguage('Как зовут мою сестру?', ['ru'])).toBe('ru')
    expect(detectLanguage('Where did we go for the holidays last summer?', ['de'])).toBe('en')
  })
})

describe('sentenceLanguages', () => {
  it('gives a one-language message its language, and a code-switching one each sentence’s own', () => {
    expect(sentenceLanguages(['Heute war ein langer Tag.', 'Ok.', 'Wir haben die Küche bestellt.'])).toEqual([
      'de',
      'de',
      'de',
    ])
    expect(
      sentenceLanguages([
        'I finally submitted my application to PA school yesterday.',
        'Mi hermana está planeando su quinceañera para agosto.',
      ]),
    ).toEqual(['en', 'es'])
  })
})
