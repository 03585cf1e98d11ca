import type { SupportedLang } from '../dialog.types.ts';

/**
 * What a reply can mean, whatever its language. `unsure` is neutral: it exists so that
 * "I don't know" claims its words before "I don't" could be read as a refusal.
 */
export type Intent = 'agree' | 'decline' | 'ready' | 'notReady' | 'repeat' | 'help' | 'unsure';

type Lexicon = Record<Intent, readonly string[]>;

// Phrases are normalised before use (case, accents, apostrophes, punctuation do not matter).
// `=phrase` matches only a whole reply, `^phrase` only at its start; a longer phrase always wins
// over a shorter one it overlaps, so negations are listed as phrases of their own.

const en: Lexicon = {
	agree: ['yes', 'yeah', 'yep', 'yup', 'ya', 'sure', 'ok', 'okay', 'okey', 'alright', 'all right', 'of course', 'certainly', 'absolutely', 'definitely', 'indeed', 'correct', "that's right", "that's correct", 'i agree', 'agreed', 'i accept', 'i consent', 'i do', 'fine', 'sounds good', 'go ahead', 'why not', 'no problem', 'affirmative', 'please do', 'yes please', 'exactly', 'uh huh', 'mhm', 'sure thing', 'of course i do', 'i am happy to', "i'm happy to", 'happy to'],
	decline: ['no', 'nope', 'nah', 'not really', 'no thanks', 'no thank you', "i don't", 'i do not', "i don't agree", 'i do not agree', 'i disagree', 'i decline', 'i refuse', "i don't want", 'i do not want', "i don't accept", 'never', 'no way', 'absolutely not', 'definitely not', 'of course not', 'cancel', 'stop', "i don't consent", "i won't", 'not at all', 'negative', "i'd rather not", 'rather not', 'not interested'],
	unsure: ["i don't know", 'i do not know', 'not sure', "i'm not sure", 'not really sure', 'not too sure', 'not so sure', 'not entirely sure', 'not 100 sure', 'maybe', 'perhaps', 'no idea', 'i guess', 'idk', 'dunno'],
	ready: ['ready', "i'm ready", 'i am ready', "let's go", "let's start", "let's begin", "let's do it", "let's get started", 'start', 'begin', '=go', 'ready to go', 'good to go', "i'm set", 'go for it', 'bring it on'],
	notReady: ['not ready', "i'm not ready", 'i am not ready', 'not yet', 'wait', 'hold on', 'hang on', 'one moment', 'one minute', 'one second', 'just a moment', 'just a minute', 'just a second', 'give me a minute', 'give me a moment', 'give me a second', 'later', 'not now', 'in a minute', 'not quite ready'],
	repeat: ['repeat', 'say again', 'say that again', 'come again', 'pardon', '=what', '=huh', '=sorry', '=excuse me', '=again', 'what did you say', "i didn't understand", 'i did not understand', "i don't understand", 'i do not understand', "i didn't catch that", "didn't catch", 'can you repeat', 'could you repeat', 'once more', 'sorry what', 'one more time'],
	help: ['help', 'help me', 'i need help', 'can you help', 'how does this work', 'what should i do', 'what do i do', 'i have a question']
};

const it: Lexicon = {
	agree: ['sì', 'certo', 'certamente', 'va bene', 'ok', 'okay', "d'accordo", "sono d'accordo", 'accetto', 'acconsento', 'esatto', 'giusto', 'perfetto', 'volentieri', 'assolutamente', 'assolutamente sì', 'certo che sì', 'sicuro', "senz'altro", 'ovviamente', 'confermo', 'bene', 'va benissimo', 'nessun problema', 'sì grazie', 'sì certo', 'come no', 'perché no'],
	decline: ['no', 'no grazie', "non sono d'accordo", 'non accetto', 'rifiuto', 'mi rifiuto', 'non voglio', 'assolutamente no', 'per niente', 'mai', 'annulla', 'basta', 'stop', 'preferisco di no', 'direi di no', 'non acconsento', 'nemmeno per sogno', 'certo che no'],
	unsure: ['non lo so', 'non so', 'forse', 'boh', 'non sono sicuro', 'non sono sicura', 'magari'],
	ready: ['pronto', 'pronta', 'sono pronto', 'sono pronta', 'pronti', 'andiamo', 'cominciamo', 'iniziamo', 'partiamo', 'si parte', 'possiamo iniziare', 'possiamo cominciare', 'inizia', 'comincia', 'vai'],
	notReady: ['non sono pronto', 'non sono pronta', 'non pronto', 'non ancora', 'aspetta', 'aspetti', 'un momento', 'un attimo', 'un secondo', 'un minuto', 'più tardi', 'dopo', 'non ora', 'non adesso', 'ancora no'],
	repeat: ['ripeti', 'ripetere', 'può ripetere', 'puoi ripetere', '=come', 'come hai detto', 'non ho capito', 'non capisco', 'cosa hai detto', '=scusa', '=scusi', 'di nuovo', 'ancora una volta', '=prego', '=cosa'],
	help: ['aiuto', 'aiutami', 'ho bisogno di aiuto', 'come funziona', 'cosa devo fare', 'ho una domanda']
};

const de: Lexicon = {
	agree: ['ja', 'jawohl', 'jep', 'jo', 'klar', 'sicher', 'natürlich', 'selbstverständlich', 'einverstanden', 'ich bin einverstanden', 'ich stimme zu', 'stimme zu', 'ok', 'okay', 'in ordnung', 'gut', 'passt', 'genau', 'richtig', 'das stimmt', 'stimmt', 'gerne', 'gern', 'auf jeden fall', 'absolut', 'ja bitte', 'ja gerne', 'kein problem', 'ich akzeptiere', 'ich bestätige', 'ja klar', 'alles klar', 'sehr gern', 'na klar'],
	decline: ['nein', 'ne', 'nee', 'nö', 'nein danke', 'ich will nicht', 'ich möchte nicht', 'ich stimme nicht zu', 'nicht einverstanden', 'ich bin nicht einverstanden', 'ich lehne ab', 'lehne ab', 'auf keinen fall', 'niemals', 'nie', 'abbrechen', 'stopp', 'stop', 'keinesfalls', 'lieber nicht', 'eher nicht', 'natürlich nicht', 'ich akzeptiere nicht'],
	unsure: ['ich weiß nicht', 'weiß nicht', 'keine ahnung', 'vielleicht', 'ich bin mir nicht sicher', 'nicht sicher', 'weiss nicht'],
	ready: ['bereit', 'ich bin bereit', 'bin bereit', 'fertig', 'los', "los geht's", 'legen wir los', 'lass uns anfangen', 'lass uns loslegen', 'fangen wir an', 'starten', 'start', 'anfangen', 'beginnen', 'wir können anfangen', 'kann losgehen', 'es kann losgehen', 'bereit zu beginnen'],
	notReady: ['nicht bereit', 'ich bin nicht bereit', 'noch nicht', 'noch nicht bereit', 'warte', 'warten sie', 'moment', 'einen moment', 'augenblick', 'einen augenblick', 'eine minute', 'später', 'jetzt nicht', 'kleinen moment', 'eine sekunde', 'nicht fertig'],
	repeat: ['wiederholen', 'bitte wiederholen', 'wiederholen sie', 'nochmal', 'noch mal', 'noch einmal', 'wie bitte', '=wie', 'was haben sie gesagt', 'ich habe nicht verstanden', 'ich habe das nicht verstanden', 'nicht verstanden', 'ich verstehe nicht', '=was', '=bitte', '=hä', '=entschuldigung'],
	help: ['hilfe', 'helfen sie mir', 'ich brauche hilfe', 'wie funktioniert das', 'was muss ich tun', 'ich habe eine frage']
};

const fr: Lexicon = {
	agree: ['oui', 'ouais', 'ouaip', 'si', "d'accord", 'dac', 'ok', 'okay', 'bien sûr', 'évidemment', 'certainement', 'absolument', 'tout à fait', 'exactement', "c'est ça", "c'est exact", "c'est bon", 'ça marche', 'ça me va', "je suis d'accord", "j'accepte", 'je consens', 'volontiers', 'parfait', 'entendu', 'pas de problème', 'oui bien sûr', 'oui merci', 'carrément', 'avec plaisir', 'pourquoi pas'],
	decline: ['non', 'nan', 'non merci', "pas d'accord", "je ne suis pas d'accord", 'je refuse', "je n'accepte pas", 'je ne veux pas', 'je veux pas', 'jamais', 'pas du tout', 'absolument pas', 'certainement pas', 'bien sûr que non', 'annuler', 'arrête', 'stop', 'hors de question', 'je préfère pas', 'je préfère ne pas', 'plutôt pas', 'je ne consens pas'],
	unsure: ['je ne sais pas', 'je sais pas', 'chais pas', 'peut-être', 'pas sûr', 'pas sûre', 'je ne suis pas sûr', 'je ne suis pas sûre', 'aucune idée'],
	ready: ['prêt', 'prête', 'je suis prêt', 'je suis prête', 'on y va', 'allons-y', "c'est parti", 'on commence', 'commençons', 'commencer', 'allez', 'go', 'vas-y', 'allez-y', 'on peut commencer', 'nous pouvons commencer'],
	notReady: ['pas prêt', 'pas prête', 'je ne suis pas prêt', 'je ne suis pas prête', 'pas encore', 'attends', 'attendez', 'un moment', 'un instant', 'une minute', 'une seconde', 'plus tard', 'pas maintenant', 'deux secondes', 'pas tout de suite', 'pas encore prêt'],
	repeat: ['répète', 'répétez', 'répéter', 'pouvez-vous répéter', 'tu peux répéter', 'vous pouvez répéter', 'encore une fois', '=pardon', '=quoi', '=comment', "je n'ai pas compris", "j'ai pas compris", 'je ne comprends pas', 'pas compris', '=hein', "qu'est-ce que vous avez dit"],
	help: ['aide', 'aidez-moi', 'aide-moi', "j'ai besoin d'aide", 'comment ça marche', 'que dois-je faire', "qu'est-ce que je dois faire", "j'ai une question"]
};

const es: Lexicon = {
	agree: ['sí', 'claro', 'claro que sí', 'por supuesto', 'desde luego', 'vale', 'de acuerdo', 'estoy de acuerdo', 'ok', 'okey', 'okay', 'bueno', 'bien', 'perfecto', 'exacto', 'correcto', 'eso es', 'acepto', 'consiento', 'sin problema', 'cómo no', 'por qué no', 'seguro', 'afirmativo', 'dale', 'está bien', 'sí claro', 'sí por favor', 'genial', 'con gusto'],
	decline: ['no', 'no gracias', 'para nada', 'nunca', 'jamás', 'de ninguna manera', 'no quiero', 'no acepto', 'no estoy de acuerdo', 'me niego', 'rechazo', 'cancelar', 'basta', 'mejor no', 'prefiero que no', 'en absoluto', 'ni hablar', 'claro que no', 'por supuesto que no', 'no consiento'],
	unsure: ['no sé', 'no lo sé', 'quizás', 'quizá', 'tal vez', 'a lo mejor', 'no estoy seguro', 'no estoy segura', 'ni idea'],
	ready: ['listo', 'lista', 'estoy listo', 'estoy lista', 'preparado', 'preparada', 'estoy preparado', 'estoy preparada', 'vamos', 'empecemos', 'comencemos', 'empezar', 'comenzar', 'adelante', 'cuando quieras', 'podemos empezar', 'empieza'],
	notReady: ['no estoy listo', 'no estoy lista', 'todavía no', 'aún no', 'espera', 'espere', 'un momento', 'un segundo', 'un minuto', 'más tarde', 'ahora no', 'no estoy preparado', 'no estoy preparada', 'dame un minuto', 'dame un momento', 'no listo'],
	repeat: ['repite', 'repita', 'repetir', 'puedes repetir', 'puede repetir', 'otra vez', 'de nuevo', '=cómo', '=qué', 'no entendí', 'no te entendí', 'no he entendido', 'no entiendo', '=perdón', 'qué dijiste', 'qué has dicho', '=mande', '=disculpa'],
	help: ['ayuda', 'ayúdame', 'necesito ayuda', 'cómo funciona', 'qué tengo que hacer', 'qué debo hacer', 'tengo una pregunta']
};

const pt: Lexicon = {
	agree: ['sim', 'claro', 'claro que sim', 'com certeza', 'certamente', 'certo', 'ok', 'okay', 'tá', 'tá bom', 'está bem', 'tudo bem', 'beleza', 'pode ser', 'concordo', 'eu concordo', 'aceito', 'de acordo', 'exato', '=isso', 'isso mesmo', 'perfeito', 'sem problema', 'sem problemas', 'afirmativo', 'positivo', 'com prazer', 'sim por favor', 'sim claro', 'pois claro'],
	decline: ['não', 'não obrigado', 'não obrigada', 'de jeito nenhum', 'nunca', 'jamais', 'não quero', 'não aceito', 'não concordo', 'discordo', 'recuso', 'me recuso', 'cancelar', 'parar', 'pare', 'chega', 'nem pensar', 'claro que não', 'prefiro não', 'de forma alguma', 'negativo'],
	unsure: ['não sei', 'talvez', 'não tenho certeza', 'sei lá', 'não sei bem', 'nem sei'],
	ready: ['pronto', 'pronta', 'estou pronto', 'estou pronta', 'tô pronto', 'tô pronta', 'vamos', 'vamos lá', 'bora', 'vamos começar', 'começar', 'pode começar', 'podemos começar', 'preparado', 'preparada', 'estou preparado', 'estou preparada', 'vamos nessa'],
	notReady: ['não estou pronto', 'não estou pronta', 'ainda não', 'espera', 'espere', 'aguarde', 'um momento', 'um minuto', 'um segundo', 'mais tarde', 'agora não', 'peraí', 'pera aí', 'só um momento', 'não estou preparado', 'não estou preparada'],
	repeat: ['repete', 'repita', 'repetir', 'pode repetir', 'de novo', 'outra vez', '=como', '=o quê', '=quê', 'não entendi', 'não percebi', 'não compreendi', '=desculpe', '=oi', 'o que você disse'],
	help: ['ajuda', 'me ajuda', 'ajude-me', 'preciso de ajuda', 'como funciona', 'o que eu faço', 'o que devo fazer', 'tenho uma pergunta']
};

const ru: Lexicon = {
	agree: ['да', 'ага', 'угу', 'конечно', 'разумеется', 'хорошо', 'ладно', 'ок', 'окей', 'ok', 'согласен', 'согласна', 'я согласен', 'я согласна', 'принимаю', 'верно', 'точно', 'правильно', 'да конечно', 'давайте', 'давай', 'без проблем', 'естественно', 'безусловно', 'именно', 'так точно', 'не против', 'я не против', 'с удовольствием', 'да да', 'отлично'],
	decline: ['нет', 'неа', 'нет спасибо', 'не согласен', 'не согласна', 'я не согласен', 'я не согласна', 'отказываюсь', 'я отказываюсь', 'не хочу', 'я не хочу', 'ни за что', 'никогда', 'ни в коем случае', 'отмена', 'отменить', 'стоп', 'хватит', 'не надо', 'конечно нет', 'нет конечно', 'не буду', 'я против', 'не принимаю'],
	unsure: ['не знаю', 'я не знаю', 'может быть', 'возможно', 'наверное', 'не уверен', 'не уверена', 'я не уверен', 'я не уверена', 'без понятия'],
	ready: ['готов', 'готова', 'готовы', 'я готов', 'я готова', 'мы готовы', 'поехали', 'начнем', 'давайте начнем', 'давай начнем', 'начинаем', 'можно начинать', 'вперед', 'начать', 'стартуем', 'погнали'],
	notReady: ['не готов', 'не готова', 'не готовы', 'я не готов', 'я не готова', 'еще не', 'пока нет', 'еще нет', 'подождите', 'подожди', 'минуту', 'минутку', 'секунду', 'секундочку', 'момент', 'одну минуту', 'одну секунду', 'позже', 'не сейчас', 'попозже', 'пока не готов', 'еще не готов', 'пока не готова', 'еще не готова'],
	repeat: ['повторите', 'повтори', 'повторить', 'можно повторить', 'еще раз', '=что', '=как', 'не понял', 'не поняла', 'я не понял', 'я не поняла', 'не расслышал', 'не расслышала', 'не понимаю', 'я не понимаю', 'что вы сказали', '=извините', '=простите', '=чего'],
	help: ['помощь', 'помогите', 'помоги', 'мне нужна помощь', 'как это работает', 'что мне делать', 'что делать', 'у меня вопрос', 'есть вопрос']
};

const ja: Lexicon = {
	agree: ['はい', 'ええ', 'うん', 'そうです', 'その通り', 'そのとおり', '同意します', '同意する', '同意', '承知しました', '了解', '了解です', 'わかりました', '分かりました', '大丈夫', '大丈夫です', 'いいです', 'いいですよ', 'もちろん', 'オーケー', 'ok', 'お願いします', 'ぜひ', '問題ありません', '構いません', 'かまいません', '賛成', 'そうですね'],
	decline: ['いいえ', 'いえ', 'いや', '嫌です', 'いやです', 'だめ', 'ダメ', 'だめです', '結構です', 'けっこうです', '同意しません', '同意できません', '同意しない', '拒否します', '拒否', 'やめます', 'やめて', 'やめたい', 'やりたくない', 'したくない', 'いらない', '要らない', 'お断りします', '断ります', '遠慮します', 'キャンセル', '違います', 'ちがいます', '無理', '無理です', '大丈夫じゃない', '大丈夫ではありません'],
	unsure: ['たぶん', '多分', 'どうかな', '知らない', 'わからない', '分からない', 'よくわからない'],
	ready: ['準備できました', '準備ができました', '準備できています', '準備ができています', '準備はできています', '準備ok', '準備オーケー', '準備万端', '始めましょう', '始めて', '始めてください', 'はじめましょう', 'はじめてください', '始めます', '行きましょう', 'いきましょう', 'スタート', 'いつでもどうぞ', 'いつでも', 'できています'],
	notReady: ['まだです', 'まだ', '準備できていません', '準備ができていません', '準備がまだ', 'ちょっと待って', 'ちょっと待ってください', '待って', '待ってください', '少し待って', '少々お待ちください', '後で', 'あとで', '今はちょっと', '今は無理'],
	repeat: ['もう一度', 'もう一回', '繰り返して', 'くりかえして', '何ですか', 'なんですか', '何と言いましたか', '聞き取れません', '聞き取れませんでした', '聞こえません', '聞こえませんでした', 'わかりません', '分かりません', 'わかりませんでした', '理解できません', '=え', '=えっ', '=すみません'],
	help: ['助けて', 'ヘルプ', '手伝って', '助けてください', 'どうすればいい', 'どうすればいいですか', '使い方', '質問があります']
};

const id: Lexicon = {
	agree: ['ya', 'iya', 'yup', 'ok', 'oke', 'okay', 'baik', 'baiklah', 'boleh', 'tentu', 'tentu saja', 'pasti', 'setuju', 'saya setuju', 'benar', 'betul', 'bener', 'sip', 'mau', 'saya mau', 'tidak masalah', 'nggak masalah', 'gak masalah', 'dengan senang hati', 'silakan', 'iya dong', 'iya boleh'],
	decline: ['tidak', 'tak', 'nggak', 'ngga', 'gak', 'ga', 'enggak', 'engga', 'ndak', 'tidak mau', 'nggak mau', 'gak mau', 'saya tidak mau', 'tidak setuju', 'saya tidak setuju', 'menolak', 'saya menolak', 'batal', 'batalkan', 'berhenti', 'jangan', 'tidak usah', 'nggak usah', 'gak usah', 'tidak terima kasih', 'sama sekali tidak', 'bukan'],
	unsure: ['tidak tahu', 'nggak tahu', 'gak tahu', 'ga tau', 'nggak tau', 'gak tau', 'entah', 'mungkin', 'kurang yakin', 'tidak yakin', 'saya tidak tahu'],
	ready: ['siap', 'saya siap', 'sudah siap', 'saya sudah siap', 'ayo', 'ayo mulai', 'mari mulai', 'mari kita mulai', 'mulai', 'mulai saja', 'yuk', 'gas', 'lanjut', 'silakan mulai'],
	notReady: ['belum siap', 'saya belum siap', 'tidak siap', 'belum', 'tunggu', 'tunggu sebentar', 'sebentar', 'sebentar ya', 'nanti', 'nanti saja', 'jangan sekarang', 'tidak sekarang', 'sebentar lagi'],
	repeat: ['ulangi', 'tolong ulangi', 'bisa diulang', 'bisa ulangi', 'sekali lagi', '=apa', '=hah', '=maaf', 'tidak mengerti', 'saya tidak mengerti', 'nggak ngerti', 'gak ngerti', 'tidak paham', 'kurang jelas', 'tidak dengar', 'apa tadi'],
	help: ['tolong', 'bantuan', 'bantu saya', 'tolong bantu', 'saya butuh bantuan', 'perlu bantuan', 'bagaimana caranya', 'saya punya pertanyaan', 'ada pertanyaan']
};

const no: Lexicon = {
	agree: ['ja', 'jada', 'jo', 'japp', 'jepp', 'ok', 'okei', 'greit', 'det er greit', 'helt greit', 'selvfølgelig', 'selvsagt', 'absolutt', 'sikkert', 'klart', 'gjerne', 'ja takk', 'enig', 'jeg er enig', 'jeg godtar', 'godtar', 'jeg samtykker', 'samtykker', 'stemmer', 'det stemmer', 'riktig', 'akkurat', 'supert', 'flott', 'fint', 'ikke noe problem', 'gjerne det'],
	decline: ['nei', 'neida', 'nei takk', 'aldri', 'på ingen måte', 'jeg vil ikke', 'vil ikke', 'jeg nekter', 'nekter', 'avslår', 'jeg avslår', 'ikke enig', 'jeg er ikke enig', 'uenig', 'avbryt', 'stopp', 'helst ikke', 'absolutt ikke', 'slett ikke', 'nei da', 'jeg godtar ikke'],
	unsure: ['vet ikke', 'jeg vet ikke', 'kanskje', 'usikker', 'jeg er usikker', 'ikke sikker', 'aner ikke'],
	ready: ['klar', 'jeg er klar', 'er klar', 'vi er klare', 'klare', 'la oss starte', 'la oss begynne', 'la oss sette i gang', 'sett i gang', 'start', 'begynn', 'kjør', 'kjør på', 'kom igjen', 'vi kan begynne', 'klar til å begynne'],
	notReady: ['ikke klar', 'jeg er ikke klar', 'ikke ennå', 'ikke enda', 'ikke helt klar', 'vent', 'vent litt', 'et øyeblikk', 'øyeblikk', 'et sekund', 'ett sekund', 'et minutt', 'ett minutt', 'senere', 'ikke nå', 'vent et øyeblikk'],
	repeat: ['gjenta', 'kan du gjenta', 'si det igjen', 'en gang til', '=igjen', '=hva', '=hæ', '=unnskyld', '=beklager', 'jeg forsto ikke', 'forsto ikke', 'jeg skjønte ikke', 'skjønte ikke', 'jeg forstår ikke', 'hva sa du'],
	help: ['hjelp', 'hjelp meg', 'jeg trenger hjelp', 'hvordan fungerer det', 'hva skal jeg gjøre', 'jeg har et spørsmål']
};

// Chinese readers type either script and Hong Kong users often write Cantonese, so the three
// Chinese languages share one lexicon of Simplified, Traditional and Cantonese phrases.
const zh: Lexicon = {
	agree: ['^是', '^对', '^對', '^好', '^行', '^嗯', '是的', '对的', '對的', '对啊', '對啊', '好的', '好啊', '好吧', '好呀', '行啊', '可以', '可以的', '没问题', '沒問題', '無問題', '冇問題', '当然', '當然', '当然可以', '當然可以', '同意', '我同意', '愿意', '願意', '我愿意', '我願意', '嗯嗯', '没错', '沒錯', '确定', '確定', '接受', '我接受', '不错', '不錯', 'ok', '^係', '係呀', '係啊', '啱', '得呀', '好呀好呀', '可以呀'],
	decline: ['=不', '不是', '不对', '不對', '不行', '不要', '不用', '不用了', '不好', '不可以', '不同意', '我不同意', '不愿意', '不願意', '我不愿意', '我不願意', '拒绝', '拒絕', '我拒绝', '我拒絕', '算了', '不了', '不想', '我不想', '取消', '=停', '当然不', '當然不', '不接受', '唔係', '唔好', '唔要', '唔得', '唔使', '唔同意', '唔想', '我唔想', '算啦', '=没有', '=沒有', '不可能'],
	unsure: ['不知道', '我不知道', '不确定', '不確定', '我不确定', '也许', '也許', '可能', '大概', '说不定', '說不定', '不清楚', '唔知', '我唔知', '唔肯定'],
	ready: ['准备好了', '準備好了', '我准备好了', '我準備好了', '准备好', '準備好', '准备就绪', '準備就緒', '好了', '开始吧', '開始吧', '开始', '開始', '我们开始吧', '我們開始吧', '来吧', '來吧', '走吧', '可以开始了', '可以開始了', '可以开始', '可以開始', '随时可以', '隨時可以', '出发', '出發', '準備好喇', '準備好啦', '準備好咗', '開始啦', '嚟啦', '得喇', '可以開始喇', '好喇'],
	notReady: ['没准备好', '沒準備好', '还没准备好', '還沒準備好', '没有准备好', '沒有準備好', '还没有准备好', '還沒有準備好', '未准备好', '未準備好', '还没', '還沒', '还没有', '還沒有', '等一下', '等等', '稍等', '请稍等', '請稍等', '等一会', '等一會', '等一会儿', '一会儿', '一會兒', '晚点', '晚點', '待会', '待會', '现在不行', '現在不行', '不是现在', '不是現在', '未得', '等陣', '等一陣', '等等先', '遲啲', '仲未', '未呀'],
	repeat: ['再说一遍', '再說一遍', '再说一次', '再說一次', '重复', '重複', '请重复', '請重複', '你说什么', '你說什麼', '=什么', '=什麼', '没听清', '沒聽清', '没听清楚', '沒聽清楚', '没听懂', '沒聽懂', '听不懂', '聽不懂', '不明白', '我不明白', '不懂', '我不懂', '=啊', '不好意思', '再講一次', '講多次', '你講咩', '咩話', '=咩', '聽唔清楚', '聽唔到', '唔明', '我唔明'],
	help: ['帮助', '幫助', '帮帮我', '幫幫我', '帮我', '幫我', '我需要帮助', '我需要幫助', '怎么做', '怎麼做', '怎么用', '怎麼用', '我该怎么办', '我該怎麼辦', '我有问题', '我有問題', '幫下我', '點做', '點樣做']
};

export const INTENT_LEXICONS: Readonly<Record<SupportedLang, Lexicon>> = {
	en,
	it,
	de,
	fr,
	es,
	pt,
	ru,
	ja,
	id,
	no,
	zh,
	'zh-TW': zh,
	'zh-HK': zh
};
