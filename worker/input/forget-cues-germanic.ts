import type { Language } from '../text/text-analysis'
import type { LanguageCues } from './forget-cues'

/**
 * The forget cues of German and Dutch (`forget-cues.ts` says what each role means). A request's infinitive stands at the
 * end, after its object ("das kannst du streichen", "kun je dat vergeten"): a removing verb's object is read on both
 * sides of it.
 */
export const GERMANIC_CUES: Readonly<Record<Language, LanguageCues>> = {
  de: {
    forgetting: 'vergiss|vergessen|vergesst|ignoriere|ignorieren|ignorier|verwirf|verwerfen',
    removing:
      'lösch|lösche|löschen|entferne|entfernen|entfern|streich|streiche|streichen|tilge|tilgen|raus|rausnehmen|nimm',
    retracting: 'vorbei|überholt|veraltet|hinfällig|erledigt|falsch|schnee von gestern|vom tisch|geschichte',
    truth: 'mehr|stimmt|wahr|richtig|gilt|aktuell|zutreffend',
    keeping:
      'gespeichert|speichern|speicherst|merken|merkst|merk|behalten|behältst|behalte|aufheben|aufbewahren|notiert|festhalten|gedächtnis',
    negations: 'nicht|kein|keine|nie|niemals|nichts',
    pointing: 'gesagt|erzählt|geschrieben|sache|das mit|gedächtnis|speicher|alles|thema|detail|info|angabe|angaben',
    pointers: 'das|es|sie|ihn|dies|davon|darüber',
    storage: 'gedächtnis|speicher|notizen|profil|daten|erinnerung',
    clitics: '',
    possessives: 'mein|meine|meinen|meinem|meiner|unser|unsere|unseren',
    speakers: 'ich|wir|er|habe|hab|hat|haben|hatte|bin|ist|man',
    addressing: 'du|dir|dich|dein|deinem|deinen|deiner|kannst|könntest|sollst|solltest|bitte|möglich|ihr|könnt',
    openers: 'also|und|dann|bitte|doch|ach|ok|aber|jedenfalls|übrigens|na',
    recalling: 'weiß|wusste|erinnere|vergessen|vergaß|vergesse',
    pastEndings: '',
    filler: 'bitte|doch|mal|ehrlich|einfach|eh|also',
    joining: 'dass|was|wie|wo|wann|ob|welche|welcher',
  },
  nl: {
    forgetting: 'vergeet|vergeten|negeer|negeren',
    removing: 'verwijder|verwijderen|wis|wissen|schrap|schrappen|haal|weghalen',
    retracting: 'voorbij|achterhaald|verouderd|fout|onjuist',
    truth: 'meer|waar|klopt|geldt|actueel|juist',
    keeping: 'onthouden|onthoud|bewaren|bewaar|opslaan|opgeslagen|geheugen',
    negations: 'niet|geen|nooit|niets',
    pointing: 'gezegd|verteld|geschreven|ding|deel|alles|gedoe|over',
    pointers: 'dat|het|dit|die',
    storage: 'geheugen|notities|profiel|gegevens',
    clitics: '',
    possessives: 'mijn|ons|onze',
    speakers: 'ik|we|wij|hij|zij|ze|heb|heeft|hebben|had|ben|is',
    addressing: 'je|jij|u|jou|jouw|kun|kan|kunt|zou|alsjeblieft|alstublieft|graag',
    openers: 'dus|en|dan|ook|maar|ok|oké',
    recalling: 'weet|wist|herinner|vergat|vergeten',
    pastEndings: '',
    filler: 'alsjeblieft|alstublieft|graag|even|gewoon',
    joining: 'dat|wat|hoe|waar|wanneer|of',
  },
}
