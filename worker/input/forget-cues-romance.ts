import type { Language } from '../text/text-analysis'
import type { LanguageCues } from './forget-cues'

/**
 * The forget cues of the Romance languages the text analysis stems (`forget-cues.ts` says what each role means). Their
 * imperatives carry their object as an ending ("bórralo", "cancellala", "apaga-o"): `clitics`.
 */
export const ROMANCE_CUES: Readonly<Record<Language, LanguageCues>> = {
  es: {
    forgetting:
      'olvida|olvidar|olvídate|olvídalo|olvídala|olvides|ignora|ignorar|ignóralo|descarta|descartar|deja estar',
    removing:
      'borra|borrar|bórralo|borres|elimina|eliminar|quita|quitar|quítalo|suprime|suprimir|tacha|tachar|desecha|desechar|saca|sacar',
    retracting: 'equivocada|equivocado|obsoleto|obsoleta|desactualizado|desactualizada|anticuado|anticuada',
    truth: 'verdad|cierto|cierta|ya|aplica|vale|válido|sentido|correcto|correcta|actual',
    keeping:
      'recuerdes|recordar|guardes|guardar|guardado|conserves|conservar|cuenta|registrado|registrada|apuntado|apuntes|mente',
    negations: 'no|nunca|deja|ni',
    pointing:
      'dije|conté|dicho|contado|comenté|escribí|lo de|tema|memoria|parte|todo|aquello|detalle|información|dato|datos',
    pointers: 'eso|esto|ese|esa|aquello',
    storage: 'memoria|notas|nota|registro|perfil|apuntado|apuntada|datos',
    clitics: 'lo|la|los|las|le|les',
    possessives: 'mi|mis|nuestro|nuestra|nuestros|nuestras',
    speakers: 'yo|me|he|ha|has|hemos|han|había|se|él|ella|nosotros|ellos',
    addressing: 'tú|te|tu|puedes|podrías|podéis|usted|puede|podría|favor|porfa|quieres|necesitas',
    openers: 'y|pues|así|que|entonces|también|bueno|oye|por|favor|porfa|mejor|ya|vale|no',
    recalling: 'acuerdo|acuerda|recuerdo|sé|sabía|olvidé|olvidaron|olvidó',
    pastEndings: 'é|ó|ado|ada|ados|adas|ido|ida|aron|ieron|ara|iera|aba|aban',
    filler: 'favor|porfa|oye',
    joining: 'que|lo|cuánto|cuánta|dónde|cómo',
  },
  fr: {
    forgetting: 'oublie|oublier|oubliez|ignore|ignorer|ignorez|laisse tomber|laissez tomber|passe',
    removing:
      'efface|effacer|effacez|supprime|supprimer|supprimez|retire|retirer|retirez|enlève|enlever|enlevez|raye|rayer|jette|jeter',
    retracting:
      'fini|finie|terminé|terminée|faux|fausse|obsolète|trompé|trompée|dépassé|dépassée|périmé|révolu|histoire ancienne',
    truth: 'plus|vrai|vraie|cas|valable|jour|actuel|actuelle|tient|existe',
    keeping:
      'garde|gardes|garder|retiens|retenir|conserve|conserver|enregistre|enregistrer|enregistré|compte|mémoire|tête|note',
    negations: 'ne|n|pas|jamais',
    pointing: 'dit|raconté|parlé|écrit|histoire|concerne|mémoire|propos|tout|détail|sujet|info|infos|information',
    pointers: 'ça|cela|l|ce|celle|celui',
    storage: 'mémoire|notes|note|dossier|profil|tête|fiche',
    clitics: 'le|la|les',
    possessives: 'mon|ma|mes|notre|nos',
    speakers: 'je|j|il|elle|on|nous|ils|elles|ai|a|avons|ont|suis|me|m',
    addressing: 'tu|te|t|vous|toi|peux|pourrais|pourriez|pouvez|veux|voudrais|plaît|stp|svp',
    openers: 'et|alors|donc|du|coup|puis|bon|bref|aussi|mais|oh|ok|sinon|enfin',
    recalling: 'sais|savais|souviens|rappelle|oublié|oublie|oubliais|oubli',
    pastEndings: 'é|ée|és|ées',
    filler: 'plaît|stp|svp',
    joining: 'que|qu|ce|combien|où|comment',
  },
  it: {
    forgetting:
      'dimentica|dimenticare|dimenticalo|dimenticala|scordare|scorda|scordalo|ignora|ignorare|lascia perdere|lasciar perdere',
    removing:
      'cancella|cancellare|cancellalo|cancellala|togli|togliere|toglilo|toglila|elimina|eliminare|rimuovi|rimuovere|butta|buttare|scarta|depenna',
    retracting: 'superata|superato|sbagliato|sbagliata|obsoleto|obsoleta|acqua passata',
    truth: 'più|vero|vera|valido|valida|attuale|conta|vale',
    keeping:
      'ricordare|ricordarti|ricordi|conservare|conservi|tenere|tenerla|tenerlo|mente|salvata|salvato|salvare|memorizzare|registrato|scritto|salvata',
    negations: 'non|mai|né',
    pointing:
      'detto|raccontato|scritto|parlato|cosa|storia|parte|memoria|tutto|quello|quella|dettaglio|informazione|idea|fatto',
    pointers: 'quello|quella|ciò|quell',
    storage: 'memoria|mente|note|nota|registro|profilo|informazione|informazioni|dati|appunti',
    clitics: 'lo|la|li|le|ne',
    possessives: 'mio|mia|miei|mie|nostro|nostra|nostri|nostre',
    speakers: 'io|mi|ho|ha|hai|abbiamo|hanno|sono|è|lui|lei|noi|loro|si',
    addressing: 'tu|ti|te|puoi|potresti|potete|può|potrebbe|favore|pure|vuoi',
    openers: 'e|quindi|allora|dunque|ecco|poi|anche|ma|insomma|beh|ok|per|favore|perciò',
    recalling: 'ricordo|ricordavo|so|sapevo|dimenticato|dimentico|scordato',
    pastEndings: 'ato|ata|ati|ate|ito|ita|ai|ò|ava|avano',
    filler: 'favore|pure',
    joining: 'che|quanto|quanta|dove|come',
  },
  pt: {
    forgetting: 'esquece|esqueça|esquecer|ignora|ignore|ignorar|deixa pra lá|deixa para lá',
    removing:
      'apaga|apague|apagar|remove|remova|remover|tira|tire|tirar|elimina|elimine|eliminar|exclui|exclua|excluir|descarta|risca',
    retracting: 'errado|errada|obsoleto|obsoleta|desatualizado|desatualizada|ultrapassado|ultrapassada|passado',
    truth: 'verdade|certo|certa|vale|válido|mais|atual|conta',
    keeping: 'lembrar|lembres|guardar|guardes|guarde|guardado|salvar|salvo|registrado|anotado|conservar|memória|cabeça',
    negations: 'não|nunca|nem|deixa',
    pointing: 'disse|contei|falei|escrevi|coisa|história|parte|memória|tudo|aquilo|detalhe|informação|assunto',
    pointers: 'isso|isto|aquilo',
    storage: 'memória|notas|nota|registro|perfil|dados',
    clitics: 'o|a|os|as|lo|la|los|las',
    possessives: 'meu|minha|meus|minhas|nosso|nossa',
    speakers: 'eu|me|ele|ela|nós|eles|elas|tenho|tinha|temos|foi',
    addressing: 'você|vocês|tu|te|pode|podes|poderia|podia|favor|consegue',
    openers: 'e|então|entao|também|mas|aí|ok|bom|por|favor|olha',
    recalling: 'lembro|sei|sabia|esqueci|esqueceu',
    pastEndings: 'ado|ada|ados|adas|ido|ida|ei|ou|aram|eram|ava',
    filler: 'favor|olha',
    joining: 'que|quanto|quanta|onde|como',
  },
}
