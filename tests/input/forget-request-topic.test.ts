import { describe, expect, it } from 'vitest'
import { clauseCues, cueLanguages } from '../../worker/input/forget-cue-score'
import { forgetRequestTopic, readForgetRequest } from '../../worker/input/forget-request-topic'

/** Whether `topic` holds `word` as a word of its own, case aside. */
const holdsWord = (topic: string, word: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${word}(?![\\p{L}\\p{N}])`, 'iu').test(topic)

describe('forgetRequestTopic', () => {
  it.each([
    ["Please forget that I'm allergic to peanuts.", "I'm allergic to peanuts"],
    ['Forget everything I told you about Tom', 'I about Tom'],
    ["Don't remember that my password is hunter2", 'my password is hunter2'],
    ['Hey, forget about my ex, please!', 'about my ex'],
    ['I no longer live in Porto.', 'I live in Porto'],
    ['forget my address', 'my address'],
    ['  forget   that   I live in Porto  ', 'I live in Porto'],
  ])('%j is about %j', (request, topic) => {
    expect(forgetRequestTopic(request)).toBe(topic)
  })

  // Requests of the wordings set's tune half (bench/forget-flow/wordings/): the topic keeps what the statement names
  // and leaves out the frame and the news and questions around the request.
  it.each([
    [
      "Morning! Back on days at last. The kiwi thing I mentioned way back, I'd rather you didn't keep that. It turned out to be my nephew. Anyway, what should I pack for a day at the coast? Pickle is coming too.",
      ['kiwi'],
      ['keep', 'nephew', 'coast', 'Pickle'],
    ],
    [
      "The car loan is paid off now, so that's not true anymore. I used the savings in the end. Feels great to be debt free. Next job is sorting out the wedding shoes. Do block heels work on cobbles?",
      ['car', 'loan'],
      ['true', 'anymore', 'savings', 'wedding'],
    ],
    [
      'Admin win! Taxes are filed, so what I said about not having done them is out of date. My accountant was lovely. Next, I need to invoice Brightleaf. What payment terms are normal for illustrators?',
      ['Taxes', 'filed', 'done'],
      ['said', 'date', 'accountant', 'Brightleaf'],
    ],
    [
      "Stripe said no, which stings. Could you wipe anything about that interview? I don't want it lingering. I'll stay at Ledgerly for now. How do I ask my manager for a raise?",
      ['interview'],
      ['wipe', 'anything', 'Ledgerly', 'manager'],
    ],
    [
      "The allergist retested me. Bee stings aren't a problem for me now, so strike that from the record. Still carrying the EpiPen for a while. The roses are done for the year. When do I prune Icebergs?",
      ['Bee', 'stings'],
      ['strike', 'EpiPen', 'roses'],
    ],
    [
      "We took the money out of the term deposit in the end. Please don't retain how much we had saved. It's nobody's business really. We're spending some on the grandkids. Any ideas for a day out in Adelaide with kids?",
      ['saved'],
      ['retain', 'business', 'grandkids', 'Adelaide'],
    ],
    [
      'Andrés ha cambiado de planes. Ignora lo que te dije sobre mudarnos a Valencia. Ahora quiere abrir su propio estudio aquí. Estoy muy contenta. ¿Cómo se registra una empresa de arquitectura?',
      ['mudarnos', 'Valencia'],
      ['Ignora', 'dije', 'estudio', 'empresa'],
    ],
    [
      'Al final he dejado la guitarra. Ya no es cierto lo de las clases de los jueves. Manolo se ha ido a Madrid y no encontré otro profesor. Ahora los jueves voy a yoga. ¿Qué esterilla me recomiendas?',
      ['clases', 'jueves'],
      ['cierto', 'Madrid', 'yoga', 'esterilla'],
    ],
    [
      'Kurze Frage vor dem Unterricht. Vergiss bitte, dass ich laktoseintolerant bin, der Test beim Arzt war negativ. Heute Abend gibt es Käsespätzle! Kannst du mir ein gutes Rezept geben? Lena freut sich schon.',
      ['laktoseintolerant'],
      ['Vergiss', 'bitte', 'Käsespätzle', 'Rezept'],
    ],
    [
      'Wir waren heute bei der Bank. Kannst du bitte löschen, wie viel wir gespart haben? Ich will nicht, dass solche Zahlen herumliegen. Die Beraterin war aber sehr nett. Was ist ein guter Zinssatz im Moment?',
      // Its own topic names one content word (`minTopicTerms`), so the sentence before it comes with it.
      ['gespart', 'Bank'],
      ['löschen', 'Beraterin', 'Zinssatz'],
    ],
    [
      'Wir haben uns ein Lastenrad gekauft. Den alten Golf haben wir verkauft, bitte lösch das aus deinem Speicher. Bruno passt sogar in die Kiste. Wie sichere ich das Rad am besten? Es steht im Hinterhof.',
      ['Golf'],
      ['lösch', 'Speicher', 'Lastenrad', 'Kiste'],
    ],
    [
      "Petite correction. Ce n'est plus vrai que je suis allergique aux arachides, le test de l'allergologue est négatif. Je suis tellement soulagée ! Du coup, tu connais une bonne recette de satay ? Hugo adore la cuisine thaïe.",
      ['allergique', 'arachides'],
      ['vrai', 'plus', 'recette', 'Hugo'],
    ],
  ])('finds the request inside %j', (message, kept, left) => {
    const topic = forgetRequestTopic(message)
    for (const word of kept) expect(topic, `keeps ${word}`).toSatisfy((t: string) => holdsWord(t, word))
    for (const word of left) expect(topic, `leaves out ${word}`).not.toSatisfy((t: string) => holdsWord(t, word))
  })

  it.each([
    ["I'm allergic to peanuts", 'a plain statement'],
    ['The forge was hot', 'a word that only starts like a cue'],
    ['So I went to the market', 'an opening filler without a request'],
    ['forget it', 'a request without a topic'],
    ['Forget that.', 'a request pointing at nothing named'],
    ['Forget what I said', 'a pointer to what was said, without a topic'],
    ['forget everything I told you', 'a pointer to everything told, without a topic'],
  ])('gives %j back as it is (%s)', (request) => {
    expect(forgetRequestTopic(request)).toBe(request.trim())
  })
})

describe('clauseCues', () => {
  it.each([
    ['please delete it', 'en', 1],
    ["I'd rather you didn't keep that", 'en', 1.5],
    ["that's no longer the case", 'en', 1.5],
    ['what I said about Dubai', 'en', 0.5],
    ["I'm not allergic to kiwi", 'en', 0.5],
    ['bórralo de tu memoria', 'es', 1.5],
    ['ya no es verdad', 'es', 1.5],
    ['das stimmt nicht mehr', 'de', 1.5],
    ['ne retiens plus ça', 'fr', 1.5],
    ['scrap that', 'en', 1],
    ["it's not relevant anymore", 'en', 1.5],
    ['ya no aplica', 'es', 1.5],
    ['das hat sich erledigt', 'de', 1],
    ["n'en tiens plus compte", 'fr', 1.5],
    ['laisse tomber', 'fr', 1],
  ])('%j in %s scores %d', (clause, language, score) => {
    expect(clauseCues(clause, cueLanguages(language)).score).toBe(score)
  })

  it.each([
    ['I keep bees in the garden', 'a keeping word without a negation'],
    ["I'd rather you didn't keep anything about where our savings are", 'a noun far from the negation'],
  ])('does not take %j for a keeping cue beyond its reach (%s)', (clause) => {
    expect(clauseCues(clause, ['en']).frame.has('savings')).toBe(false)
    expect(clauseCues('I keep bees in the garden', ['en']).score).toBe(0)
  })

  it('reads a message in its own language and in English', () => {
    expect(cueLanguages('es')).toEqual(['es', 'en'])
    expect(cueLanguages('en')).toEqual(['en'])
    expect(cueLanguages('ja')).toEqual(['en'])
  })
})

// Written for these tests, apart from the benchmark sets: a request in each language the cues cover, and messages that
// speak of forgetting, deleting or no longer in another sense and ask the memory for nothing.
describe('readForgetRequest', () => {
  it.each([
    [
      'Long day at work. You know how I said my brother lives in Cork? Forget that, he moved to Galway.',
      'Forget that, he moved to Galway.',
    ],
    ['could u not save the stuff about my divorce. thx', 'could u not save the stuff about my divorce.'],
    [
      "I was wrong about the wedding date, please don't hold onto that.",
      "I was wrong about the wedding date, please don't hold onto that.",
    ],
    [
      'Quick update: the Lisbon job offer fell through, so that plan is off the table. Any tips?',
      'Quick update: the Lisbon job offer fell through, so that plan is off the table.',
    ],
    ['Scrap my earlier message about the dentist.', 'Scrap my earlier message about the dentist.'],
    ['Olvídate de lo del gimnasio, ya no voy.', 'Olvídate de lo del gimnasio, ya no voy.'],
    [
      'Hoy llueve. Por favor, no guardes mi número de la seguridad social.',
      'Por favor, no guardes mi número de la seguridad social.',
    ],
    ['Vergiss bitte meine alte Adresse in Köln.', 'Vergiss bitte meine alte Adresse in Köln.'],
    [
      'Das mit dem Umzug nach Hamburg ist hinfällig. Wir bleiben hier.',
      'Das mit dem Umzug nach Hamburg ist hinfällig.',
    ],
    [
      "Oublie ce que je t'ai dit sur mon salaire, s'il te plaît.",
      "Oublie ce que je t'ai dit sur mon salaire, s'il te plaît.",
    ],
    ['Il fait beau. Ne garde pas en mémoire mon adresse.', 'Ne garde pas en mémoire mon adresse.'],
    ['Dimentica quello che ti ho detto sul mio ex.', 'Dimentica quello che ti ho detto sul mio ex.'],
    ['Esquece o que eu disse sobre o meu pai, por favor.', 'Esquece o que eu disse sobre o meu pai, por favor.'],
    ['Apaga isso da tua memória.', 'Apaga isso da tua memória.'],
    ['Vergeet wat ik je over mijn baan heb verteld.', 'Vergeet wat ik je over mijn baan heb verteld.'],
  ])('reads the request in %j', (message, sentence) => {
    const { sentences } = readForgetRequest(message)
    expect(sentences.map((s) => s.text)).toEqual([sentence])
    for (const s of sentences) expect(message.slice(s.start, s.end)).toBe(s.text)
  })

  it.each([
    'I deleted the app because it kept crashing.',
    'My grandmother forgets names all the time now.',
    'Can you remove the commas from this sentence and make it shorter?',
    "Don't forget to remind me about the dentist on Friday.",
    'We dropped the kids at school and went for coffee.',
    'He told me to ignore the noise from the boiler.',
    'I no longer remember where I parked.',
    'Olvidé el paraguas en el tren.',
    '¿Puedes quitar las cebollas de esta receta?',
    'Ich habe vergessen, die Blumen zu gießen.',
    'Kannst du diesen Satz kürzer machen und das Komma löschen?',
    "J'ai supprimé mon compte Facebook hier.",
    'Ho dimenticato il portafoglio a casa.',
    'Eu esqueci a senha do banco.',
    'Ik ben mijn sleutels vergeten.',
  ])('reads no request in %j', (message) => {
    expect(readForgetRequest(message).sentences).toEqual([])
    expect(readForgetRequest(message).topic).toBe(message)
  })

  it('reads a message written in lower case by its full stops, which the sentence splitter passes over', () => {
    const message = 'ok so. my sister moved to leeds, so scratch the bit about her flat. whats good in leeds'
    const reading = readForgetRequest(message)
    expect(reading.sentences).toEqual([
      { text: 'my sister moved to leeds, so scratch the bit about her flat.', start: 7, end: 67 },
    ])
    expect(reading.topic).not.toMatch(/whats good/)
  })

  it('keeps a topic put before the request in its sentence, not the news after it', () => {
    expect(readForgetRequest("Le vertige, franchement, ça n'existe plus pour moi.").topic).toMatch(/^Le vertige/)
    const topic = readForgetRequest('The Oslo job, forget it, I took the one in Bergen.').topic
    expect(topic).toMatch(/Oslo job/)
    expect(topic).not.toMatch(/Bergen/)
  })

  it('gives the offsets in the text as given, spaces and all', () => {
    const message = '  Nice weather.   Please forget my address.  '
    const [sentence] = readForgetRequest(message).sentences
    expect(sentence).toEqual({ text: 'Please forget my address.', start: 18, end: 43 })
  })
})
