import type { SampleSession } from './sample-conversation'

/**
 * The demo's German sample, written for the demo in German (not translated): Jonas, a baker in Leipzig, opens a
 * café of his own while his daughter starts school. Its own conversation (`beispiel-de`), so it can sit beside the
 * English sample; its requests ask with other forms of the words than the history uses (compounds, cases).
 */
export const germanSessions: SampleSession[] = [
  {
    date: '2026-02-03T18:20:00Z',
    turns: [
      [
        'user',
        'Hallo! Ich bin Jonas, Bäckermeister in Leipzig. Nach zwölf Jahren in der Großbäckerei will ich mich selbstständig machen: ein kleines Café mit eigener Backstube in Plagwitz. Wo fange ich an?',
      ],
      [
        'assistant',
        'Glückwunsch zu dem Schritt! Am Anfang stehen ein Businessplan, ein Gespräch mit der Handwerkskammer und die Suche nach einem Ladenlokal. Für die Finanzierung lohnt sich ein Termin bei der Sächsischen Aufbaubank, die Gründungsdarlehen vergibt.',
      ],
      [
        'user',
        'Den Businessplan schreibe ich mit meiner Schwester Miriam, sie ist Steuerberaterin. Meine Frau Hanna arbeitet als Hebamme im Klinikum St. Georg, deshalb muss ich die Öffnungszeiten gut planen.',
      ],
      [
        'assistant',
        'Eine Steuerberaterin in der Familie ist Gold wert. Plant die Öffnungszeiten rückwärts von der Backstube aus: Wer um vier Uhr backt, kann nicht bis zum Abend im Café stehen.',
      ],
    ],
  },
  {
    date: '2026-03-17T19:05:00Z',
    turns: [
      [
        'user',
        'Wir haben ein Ladenlokal gefunden! Karl-Heine-Straße 41, früher ein Blumenladen, 68 Quadratmeter. Die Kaltmiete liegt bei 1.150 Euro, der Mietvertrag läuft erst einmal fünf Jahre.',
      ],
      [
        'assistant',
        'Das klingt nach einer guten Lage. Prüft vor der Unterschrift, ob die Gewerbeaufsicht den Umbau zur Backstube genehmigt, vor allem Abluft und Fettabscheider.',
      ],
      [
        'user',
        'Die Aufbaubank hat das Darlehen bewilligt: 85.000 Euro, zehn Jahre Laufzeit. Den Steinbackofen kaufe ich gebraucht von einer Bäckerei in Halle, die zumacht.',
      ],
      [
        'assistant',
        'Ein gebrauchter Ofen spart viel Geld. Lass ihn vor dem Transport von einem Ofenbauer prüfen und plane zwei Tage für das Einbrennen ein.',
      ],
    ],
  },
  {
    date: '2026-05-09T07:40:00Z',
    turns: [
      [
        'user',
        'Unsere Tochter Lotte wird im August eingeschult, in die Grundschule an der Nonnenstraße. Die Schultüte bastelt sie mit Oma Renate, mit einem Fuchs darauf.',
      ],
      [
        'assistant',
        'Wie schön! Zur Einschulung passt ein ruhiger Vormittag: Vielleicht öffnet das Café an dem Tag erst mittags.',
      ],
      [
        'user',
        'Gute Idee. Der Eröffnungstermin steht übrigens: Samstag, der 13. Juni. Es gibt Sauerteigbrot, Leipziger Lerchen und Quarkkeulchen.',
      ],
      [
        'assistant',
        'Ein Samstag ist ideal für eine Eröffnung. Mit Leipziger Lerchen holst du die Nachbarschaft ab; kleine Kostproben an der Tür ziehen Laufkundschaft an.',
      ],
    ],
  },
  {
    date: '2026-06-02T20:10:00Z',
    turns: [
      [
        'user',
        'Planänderung: Der Ofenbauer braucht länger, wir eröffnen erst am 27. Juni. Außerdem habe ich eine Aushilfe eingestellt, Deniz, er studiert Lebensmitteltechnik und arbeitet samstags und sonntags.',
      ],
      [
        'assistant',
        'Zwei Wochen später ist ärgerlich, aber besser als ein Ofen, der nicht zieht. Mit Deniz am Wochenende hast du Luft für die Backstube.',
      ],
      [
        'user',
        'Ich habe Weizenmehl und Roggenmehl jetzt bei der Mühle in Bad Düben bestellt, Bio-Qualität. Die liefern jeden Dienstag.',
      ],
      [
        'assistant',
        'Eine regionale Mühle ist auch eine gute Geschichte für die Tafel im Café. Ein fester Liefertag hilft beim Planen der Sauerteige.',
      ],
    ],
  },
]

/** Requests the German sample can answer, in other forms of its words (compounds, cases, a changed date). */
export const germanRequests = [
  'Wann eröffnet mein Café?',
  'Wie hoch ist die Miete für den Laden?',
  'Von welcher Mühle kommt mein Mehl?',
  'Wann ist Lottes Einschulung, und in welche Schule geht sie?',
  'Wer hilft mir am Wochenende aus?',
]
