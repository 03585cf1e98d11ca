import type { SessionFacts, SupportedLang, UserQuestion } from '../dialog.types.ts';

/**
 * Questions people ask instead of answering ("wait, what is this for?", "what happens to my
 * data?", "how long will this take?"), and the short answers the embedded engine gives from what
 * the session knows. The answers say only what is true of every Veriflow session: who asked for
 * the check is the integrator, what is shared goes to them, and how many steps are left.
 */

type QuestionLexicon = Partial<Record<Exclude<UserQuestion, 'other'>, readonly string[]>>;

/**
 * Words that make a reply a question even when the lexicon does not know which one: question words
 * ("why", "who", "is it…") together with a question mark or a "but". "Yes, but is this encrypted?"
 * is a question to answer first, not a yes.
 */
export const QUESTION_WORDS: Readonly<Partial<Record<SupportedLang, { ask: readonly string[]; but: readonly string[] }>>> = {
	en: { ask: ['why', 'what', 'whats', 'who', 'whom', 'whose', 'how', 'when', 'where', 'which', 'is it', 'is this', 'is that', 'are you', 'do you', 'does it', 'does this', 'can i', 'can you', 'will it', 'will you', 'mandatory', 'required', 'optional'], but: ['but', 'though', 'tho', 'however'] },
	de: { ask: ['warum', 'wieso', 'weshalb', 'wozu', 'was', 'wer', 'wie', 'wann', 'wo', 'welche', 'welcher', 'ist das', 'ist es', 'muss ich', 'gebt ihr', 'werden', 'wird das', 'pflicht'], but: ['aber', 'abr', 'doch', 'allerdings'] },
	fr: { ask: ['pourquoi', 'pk', 'pq', 'quoi', 'koi', 'qui', 'comment', 'quand', 'ou', 'quel', 'quelle', 'est ce', 'cest obligatoire', 'obligatoire', 'vous faites'], but: ['mais', 'mai', 'par contre', 'cependant'] },
	es: { ask: ['por que', 'porque', 'que', 'quien', 'quienes', 'como', 'cuando', 'donde', 'cual', 'obligatorio', 'es seguro'], but: ['pero', 'aunque', 'eso si'] },
	pt: { ask: ['por que', 'porque', 'o que', 'quem', 'como', 'quando', 'onde', 'qual', 'obrigatorio', 'e seguro'], but: ['mas', 'porem', 'so que'] },
	it: { ask: ['perche', 'cosa', 'chi', 'come', 'quando', 'dove', 'quale', 'obbligatorio'], but: ['ma', 'pero', 'tuttavia'] },
	// Short CJK words hide inside others (いつ in いつでも, どう in どうぞ): only unambiguous ones here.
	ja: { ask: ['なぜ', 'なんで', '誰', 'だれ', 'どこ', 'ですか', 'ますか', 'でしょうか', '必須'], but: ['でも', 'けど', 'しかし'] }
};

// Same notation as intent-lexicon.ts (normalised; `=` whole reply, `^` at the start). A phrase
// marked `~` names a topic ("my passport") rather than asking: it counts only in a reply that asks
// (a question word or mark), so "one sec, I need to find my passport" is not a question.
export const QUESTION_LEXICONS: Readonly<Partial<Record<SupportedLang, QuestionLexicon>>> = {
	en: {
		purpose: ['what is this for', 'whats this for', 'what is this', 'whats this', 'what is it for', 'what for', '=why', 'why do i need', 'why do you need', 'why do i have to', 'why should i', 'why are you asking', 'why is this needed', 'why is this necessary', 'what is the purpose', 'whats the purpose', 'purpose of this', 'who are you', 'who is asking', 'who needs this', 'what are you', 'what is going on', 'whats going on', 'what am i doing', 'what does this do', 'what is this about', 'whats this about', 'why me', 'what do you want', 'is this legit', 'is this a scam', 'what happens next', 'what will happen'],
		data: ['~my data', '~my personal data', '~my information', '~my info', '~my details', '~my photo', '~my photos', '~my picture', '~my pictures', '~my face', '~my selfie', '~my passport', '~my id', '~my documents', '~my document', 'privacy', 'private', 'gdpr', 'data protection', 'is it stored', 'stored', 'store my', 'keep my', 'do you keep', 'do you save', 'saved', 'who sees', 'who can see', 'who will see', 'shared with', 'share my', 'sell my', 'delete my', 'deleted', 'is it safe', 'is this safe', 'is it secure', 'is this secure', 'what happens to'],
		duration: ['how long', 'how much time', 'how many steps', 'how many minutes', 'will it take long', 'will this take long', 'does it take long', 'take long', 'takes long', 'taking long', 'is it quick', 'is this quick', 'how quick', 'how fast', 'long will', 'much longer', 'how many more']
	},
	de: {
		purpose: ['wofür ist das', 'wozu ist das', 'wozu', 'wofür', '=warum', 'warum muss ich', 'warum brauchen sie', 'warum brauchst du', 'warum soll ich', 'wieso muss ich', 'wieso', 'weshalb', 'was ist das', 'was soll das', 'worum geht es', 'worum gehts', 'wer sind sie', 'wer bist du', 'was passiert hier', 'was passiert als nächstes', 'was wollen sie', 'ist das seriös', 'ist das echt'],
		data: ['~meine daten', '~meinen daten', '~meine persönlichen daten', '~mein foto', '~meine fotos', '~mein bild', '~meine bilder', '~mein gesicht', '~mein ausweis', '~meinen ausweis', '~meinem ausweis', '~mein pass', '~meinen pass', 'datenschutz', 'dsgvo', 'gespeichert', 'speichern sie', 'speichert ihr', 'wer sieht', 'wer kann sehen', 'weitergegeben', 'gelöscht', 'ist das sicher', 'sicher ist'],
		duration: ['wie lange', 'wie viel zeit', 'wieviel zeit', 'wie viele schritte', 'wie viele minuten', 'dauert das lange', 'dauert es lange', 'lange dauern', 'geht das schnell', 'geht es schnell', 'wie schnell', 'noch lange']
	},
	fr: {
		purpose: ["c'est pour quoi", 'cest pour quoi', 'ça sert à quoi', 'ca sert a quoi', 'à quoi ça sert', 'a quoi ca sert', 'pour quoi faire', '=pourquoi', 'pourquoi je dois', 'pourquoi dois-je', 'pourquoi vous avez besoin', 'pourquoi faire', "qu'est-ce que c'est", 'quest ce que cest', 'cest quoi', "c'est quoi", 'vous êtes qui', 'qui êtes-vous', 't es qui', 'qui es-tu', "qu'est-ce qui se passe", 'que se passe-t-il', "c'est une arnaque", "c'est sérieux"],
		data: ['~mes données', '~mes donnees', '~mes informations', '~mes infos', '~ma photo', '~mes photos', '~mon visage', '~mon passeport', '~ma carte', "ma pièce d'identité", 'vie privée', 'confidentialité', 'rgpd', 'conservé', 'conservées', 'stocké', 'stockées', 'enregistré', 'enregistrées', 'qui voit', 'qui peut voir', 'partagé', 'supprimé', 'supprimées', "c'est sécurisé", 'est-ce sûr', 'sécurisé'],
		duration: ['combien de temps', 'ça prend combien', 'ca prend combien', 'combien d étapes', "combien d'étapes", 'combien de minutes', 'ça dure', 'ca dure', 'ça va être long', 'ca va etre long', "c'est long", 'cest long', 'ça prend du temps', "c'est rapide", 'encore longtemps']
	},
	es: {
		purpose: ['para qué es', 'para que es', 'para qué sirve', 'para que sirve', 'para qué', 'para que', '=por qué', '=porque', 'por qué tengo que', 'por que tengo que', 'por qué necesitan', 'por qué necesitas', 'qué es esto', 'que es esto', 'de qué va esto', 'de que va', 'quién eres', 'quien eres', 'quiénes son', 'qué pasa', 'qué está pasando', 'es una estafa', 'es seguro esto', 'es legal'],
		data: ['~mis datos', '~mis datos personales', '~mi información', '~mi informacion', '~mi foto', '~mis fotos', '~mi cara', '~mi pasaporte', '~mi documento', '~mi dni', '~mi identificación', 'privacidad', 'protección de datos', 'rgpd', 'guardan', 'guardáis', 'se guarda', 'almacenan', 'quién ve', 'quien ve', 'quién puede ver', 'compartís', 'comparten', 'borran', 'eliminan', 'es seguro'],
		duration: ['cuánto tiempo', 'cuanto tiempo', 'cuánto tarda', 'cuanto tarda', 'cuánto dura', 'cuanto dura', 'cuántos pasos', 'cuantos pasos', 'cuántos minutos', 'va a tardar', 'tarda mucho', 'es rápido', 'es rapido', 'falta mucho', 'queda mucho']
	},
	pt: {
		purpose: ['para que serve', 'pra que serve', 'para que é isso', 'pra que é isso', 'pra que isso', 'para quê', '=por quê', '=porquê', '=porque', 'por que preciso', 'porque preciso', 'por que tenho que', 'porque tenho que', 'o que é isso', 'o que é isto', 'que é isso', 'quem é você', 'quem são vocês', 'quem és tu', 'o que está acontecendo', 'o que se passa', 'é golpe', 'isso é seguro', 'é confiável'],
		data: ['~meus dados', '~os meus dados', '~minhas informações', '~minha foto', '~minhas fotos', '~meu rosto', '~a minha cara', '~meu passaporte', '~meu documento', '~o meu documento', 'privacidade', 'lgpd', 'rgpd', 'proteção de dados', 'guardam', 'armazenam', 'fica guardado', 'fica salvo', 'quem vê', 'quem pode ver', 'compartilham', 'partilham', 'apagam', 'é seguro'],
		duration: ['quanto tempo', 'demora muito', 'vai demorar', 'quantos passos', 'quantas etapas', 'quantos minutos', 'é rápido', 'é rapido', 'leva muito tempo', 'falta muito', 'demora quanto']
	},
	it: {
		purpose: ['a cosa serve', 'a che serve', 'per cosa', '=perché', '=perche', 'perché devo', 'perche devo', 'perché vi serve', 'cosa è questo', "cos'è questo", 'che cosè', 'chi sei', 'chi siete', 'cosa succede', 'è una truffa', 'è sicuro questo'],
		data: ['~i miei dati', '~miei dati', '~mie informazioni', '~la mia foto', '~le mie foto', '~il mio viso', '~il mio passaporto', '~il mio documento', 'privacy', 'gdpr', 'conservate', 'salvate', 'memorizzate', 'chi vede', 'chi può vedere', 'condivisi', 'cancellati', 'è sicuro'],
		duration: ['quanto tempo', 'quanto dura', 'quanto ci vuole', 'quanti passaggi', 'quanti minuti', 'ci vuole molto', 'è veloce', 'manca molto']
	},
	ja: {
		purpose: ['何のため', 'なんのため', '何のために', '目的は', '目的', 'なぜ', '何で必要', 'なんで必要', 'どうして', 'これは何', 'これなに', 'これ何', 'あなたは誰', 'だれですか', '誰ですか', '詐欺'],
		data: ['~個人情報', '~データ', '~写真は', '~顔写真', '~パスポートは', 'プライバシー', '保存', '保管', '誰が見る', '誰が見ます', '共有', '削除', '安全ですか', '安全なの'],
		duration: ['どのくらい', 'どれくらい', 'どれぐらい', '何分', '何ステップ', '時間かかる', '時間がかかる', 'すぐ終わる', 'あとどれ']
	},
	ru: {
		purpose: ['для чего', 'зачем', 'зачем это', 'что это', 'кто вы', 'кто ты', 'почему я должен', 'почему я должна', 'это мошенничество'],
		data: ['~мои данные', '~моими данными', 'персональные данные', '~мое фото', '~мои фото', '~мой паспорт', 'конфиденциальность', 'хранятся', 'храните', 'кто увидит', 'удаляете', 'это безопасно'],
		duration: ['сколько времени', 'как долго', 'сколько шагов', 'сколько минут', 'это долго', 'долго ли']
	},
	id: {
		purpose: ['untuk apa', 'buat apa', 'kenapa', 'mengapa', 'ini apa', 'apa ini', 'siapa kamu', 'siapa anda', 'apakah ini penipuan'],
		data: ['~data saya', 'data pribadi', '~foto saya', '~wajah saya', '~paspor saya', '~ktp saya', 'privasi', 'disimpan', 'siapa yang melihat', 'dibagikan', 'dihapus', 'apakah aman'],
		duration: ['berapa lama', 'lama tidak', 'berapa langkah', 'berapa menit', 'lama gak', 'lama nggak']
	},
	no: {
		purpose: ['hva er dette', 'hva er det for', 'hvorfor', 'hvorfor må jeg', 'hvem er du', 'hvem er dere', 'er dette svindel'],
		data: ['~mine data', '~dataene mine', '~mine opplysninger', '~bildet mitt', '~bildene mine', '~ansiktet mitt', '~passet mitt', 'personvern', 'lagret', 'lagrer dere', 'hvem ser', 'delt', 'slettet', 'er det trygt'],
		duration: ['hvor lang tid', 'hvor lenge', 'tar det lang tid', 'hvor mange steg', 'hvor mange minutter']
	},
	zh: {
		purpose: ['这是干什么', '這是幹什麼', '干什么用', '幹什麼用', '为什么', '為什麼', '做什么用', '做什麼用', '这是什么', '這是什麼', '你是谁', '你是誰', '點解', '做咩', '係咩嚟', '骗子', '騙子'],
		data: ['~我的数据', '~我的數據', '~我的资料', '~我的資料', '~个人信息', '~個人信息', '~個人資料', '隐私', '隱私', '~照片', '保存', '储存', '儲存', '谁能看到', '誰能看到', '删除', '刪除', '安全吗', '安全嗎'],
		duration: ['多长时间', '多長時間', '多久', '要多久', '几分钟', '幾分鐘', '几步', '幾步', '要幾耐', '幾耐']
	}
};

type Answers = Record<Exclude<UserQuestion, 'other'> | 'durationSteps' | 'cannotAnswer', string>;

const ANSWERS: Record<SupportedLang, Answers> = {
	en: { cannotAnswer: "I can't answer that one here. In short:", purpose: 'This is an identity check for the service that sent you here. It confirms that it is really you.', data: 'What you share here, such as your answers and photos, goes to the service that asked for this check, for this check. Their privacy policy says how long they keep it.', duration: 'It usually takes a few minutes.', durationSteps: 'It takes a few minutes: {n} steps to go, this one included.' },
	it: { cannotAnswer: 'Qui non posso rispondere a questo. In breve:', purpose: "È un controllo d'identità per il servizio che ti ha mandato qui. Conferma che sei davvero tu.", data: 'Ciò che condividi qui, come risposte e foto, va al servizio che ha chiesto questo controllo, solo per questo controllo. La sua informativa sulla privacy dice per quanto tempo lo conserva.', duration: 'Di solito richiede pochi minuti.', durationSteps: 'Richiede pochi minuti: mancano {n} passaggi, compreso questo.' },
	de: { cannotAnswer: 'Das kann ich hier nicht beantworten. Kurz gesagt:', purpose: 'Das ist eine Identitätsprüfung für den Dienst, der Sie hierher geschickt hat. Sie bestätigt, dass Sie es wirklich sind.', data: 'Was Sie hier teilen, etwa Antworten und Fotos, geht an den Dienst, der diese Prüfung angefordert hat, und nur für diese Prüfung. Wie lange er es aufbewahrt, steht in seiner Datenschutzerklärung.', duration: 'Das dauert meist nur wenige Minuten.', durationSteps: 'Das dauert wenige Minuten: noch {n} Schritte, dieser eingeschlossen.' },
	fr: { cannotAnswer: 'Je ne peux pas répondre à cela ici. En bref :', purpose: "C'est une vérification d'identité pour le service qui vous a envoyé ici. Elle confirme que c'est bien vous.", data: "Ce que vous partagez ici, comme vos réponses et vos photos, va au service qui a demandé cette vérification, pour cette vérification. Sa politique de confidentialité indique combien de temps il le conserve.", duration: 'Cela prend en général quelques minutes.', durationSteps: 'Cela prend quelques minutes : encore {n} étapes, celle-ci comprise.' },
	es: { cannotAnswer: 'Eso no puedo responderlo aquí. En resumen:', purpose: 'Es una comprobación de identidad para el servicio que te ha enviado aquí. Confirma que eres tú de verdad.', data: 'Lo que compartes aquí, como respuestas y fotos, va al servicio que pidió esta comprobación, solo para ella. Su política de privacidad dice cuánto tiempo lo guarda.', duration: 'Suele llevar unos pocos minutos.', durationSteps: 'Lleva unos minutos: quedan {n} pasos, este incluido.' },
	pt: { cannotAnswer: 'Não consigo responder isso aqui. Em resumo:', purpose: 'É uma verificação de identidade para o serviço que enviou você até aqui. Ela confirma que é você mesmo.', data: 'O que você compartilha aqui, como respostas e fotos, vai para o serviço que pediu esta verificação, só para ela. A política de privacidade desse serviço diz por quanto tempo ele guarda.', duration: 'Costuma levar poucos minutos.', durationSteps: 'Leva poucos minutos: faltam {n} etapas, contando esta.' },
	ru: { cannotAnswer: 'На это я здесь ответить не могу. Коротко:', purpose: 'Это проверка личности для сервиса, который направил вас сюда. Она подтверждает, что это действительно вы.', data: 'То, чем вы делитесь здесь, например ответы и фото, получает сервис, запросивший эту проверку, и только для неё. Сколько он это хранит, сказано в его политике конфиденциальности.', duration: 'Обычно это занимает несколько минут.', durationSteps: 'Это займёт несколько минут: осталось шагов — {n}, включая этот.' },
	ja: { cannotAnswer: 'その質問にはここではお答えできません。簡単に言うと、', purpose: 'これは、ここへ案内したサービスのための本人確認です。ご本人であることを確認します。', data: '回答や写真など、ここで共有された情報は、この確認を依頼したサービスに、この確認のためだけに送られます。保存期間はそのサービスのプライバシーポリシーに記載されています。', duration: '通常は数分で終わります。', durationSteps: '数分で終わります。この手順を含めて残り{n}ステップです。' },
	id: { cannotAnswer: 'Saya tidak bisa menjawab itu di sini. Singkatnya:', purpose: 'Ini adalah pemeriksaan identitas untuk layanan yang mengarahkan Anda ke sini. Pemeriksaan ini memastikan bahwa ini benar-benar Anda.', data: 'Apa yang Anda bagikan di sini, seperti jawaban dan foto, dikirim ke layanan yang meminta pemeriksaan ini, hanya untuk pemeriksaan ini. Kebijakan privasi mereka menjelaskan berapa lama datanya disimpan.', duration: 'Biasanya hanya beberapa menit.', durationSteps: 'Hanya beberapa menit: tinggal {n} langkah, termasuk yang ini.' },
	no: { cannotAnswer: 'Det kan jeg ikke svare på her. Kort sagt:', purpose: 'Dette er en identitetskontroll for tjenesten som sendte deg hit. Den bekrefter at det virkelig er deg.', data: 'Det du deler her, som svar og bilder, går til tjenesten som ba om denne kontrollen, bare for denne kontrollen. Personvernerklæringen deres sier hvor lenge de tar vare på det.', duration: 'Det tar vanligvis noen få minutter.', durationSteps: 'Det tar noen få minutter: {n} steg igjen, dette medregnet.' },
	zh: { cannotAnswer: '这个问题我在这里无法回答。简单来说：', purpose: '这是为引导您来到这里的服务进行的身份验证，用来确认确实是您本人。', data: '您在这里提供的内容（例如回答和照片）会发送给要求本次验证的服务，仅用于本次验证。保存多久请见该服务的隐私政策。', duration: '通常只需几分钟。', durationSteps: '只需几分钟：包括这一步在内还有{n}步。' },
	'zh-TW': { cannotAnswer: '這個問題我在這裡無法回答。簡單來說：', purpose: '這是為引導您來到這裡的服務進行的身分驗證，用來確認確實是您本人。', data: '您在這裡提供的內容（例如回答和相片）會傳送給要求本次驗證的服務，僅用於本次驗證。保存多久請見該服務的隱私權政策。', duration: '通常只需幾分鐘。', durationSteps: '只需幾分鐘：包括這一步在內還有{n}步。' },
	'zh-HK': { cannotAnswer: '這個問題我在這裡答不到。簡單來說：', purpose: '這是為帶你來到這裡的服務進行的身份核實，用來確認確實是你本人。', data: '你在這裡提供的內容（例如回答和相片）會傳送給要求今次核實的服務，只用於今次核實。保存多久請參閱該服務的私隱政策。', duration: '通常只需幾分鐘。', durationSteps: '只需幾分鐘：連這一步在內還有{n}步。' }
};

export function answerFor(question: UserQuestion, lang: SupportedLang, facts: SessionFacts): string {
	const lines = ANSWERS[lang] ?? ANSWERS.en;
	// A question the engine did not recognise: it says so and gives the gist, never a made-up answer.
	if (question === 'other') return `${lines.cannotAnswer}${lang === 'ja' || lang.startsWith('zh') ? '' : ' '}${lines.purpose}`;
	if (question === 'duration' && facts.stepsLeft !== null && facts.stepsLeft > 0) return lines.durationSteps.replace('{n}', String(facts.stepsLeft));
	return lines[question];
}
