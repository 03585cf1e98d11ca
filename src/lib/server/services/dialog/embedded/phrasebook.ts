import type { SupportedLang } from '../dialog.types.ts';

/**
 * The embedded engine's speech: goal prompts (written in English by integrators, e.g. "Greet the
 * user and ask whether they are ready to begin") are recognised by keyword patterns and spoken with
 * fixed phrases in the session language. It cannot paraphrase: a goal it does not recognise is
 * spoken as written (see EmbeddedDialogEngine.speak), which is why multilingual flows should either
 * keep to these goals, use `Say:` prompts per language, or configure the LLM engine.
 */
export type Goal =
	| 'greet'
	| 'introduce'
	| 'howAreYou'
	| 'askReady'
	| 'askName'
	| 'askEmail'
	| 'askPhone'
	| 'askDateOfBirth'
	| 'askAge'
	| 'askConsent'
	| 'askConfirm'
	| 'nextFace'
	| 'nextDocument'
	| 'nextCode'
	| 'nextStep'
	| 'lookAtCamera'
	| 'wait'
	| 'thank'
	| 'complete'
	| 'goodbye';

// A request goal needs an asking verb before its subject in the same sentence, so "greet the user
// by name" greets and does not ask for the name.
const ASK = String.raw`\b(?:ask|asks|request|get|collect|obtain|find out|enquire|inquire|check|see|what(?:'s| is)|whether|if|are you|seek)\b[^.;!?]*?`;
const asking = (subject: string) => new RegExp(`${ASK}\\b(?:${subject})\\b`);

const GOAL_PATTERNS: [Goal, RegExp][] = [
	['greet', /\b(?:greet|welcome|say hello|say hi|hello)\b/],
	['introduce', /\b(?:introduce (?:yourself|itself|the assistant)|explain who you are|present yourself)\b/],
	['howAreYou', /\b(?:how (?:they are|are you|the user is)|ask how)\b/],
	['askReady', asking('ready')],
	['askName', asking('(?:first |full |last )?name|surname')],
	['askEmail', asking('e-?mail(?: address)?')],
	['askPhone', asking('phone|mobile number|telephone')],
	['askDateOfBirth', asking('date of birth|birth ?date|birthday|born|dob')],
	['askAge', asking('age|how old')],
	['askConsent', asking('consents?|agrees?|agreement|permission|accepts?|terms')],
	['askConfirm', /\b(?:confirm|confirmation|is (?:that|this|it) correct|verify that)\b/],
	['nextFace', /\b(?:next|then|now|explain|tell)\b.*\b(?:face|selfie|liveness)\b/],
	['nextDocument', /\b(?:next|then|now|explain|tell)\b.*\b(?:document|passport|id card|identity card|licen[cs]e)\b/],
	['nextCode', /\b(?:next|then|now|explain|tell)\b.*\b(?:code|otp|passcode|one-time)\b/],
	['nextStep', /\b(?:next step|explain (?:what|the next|the process)|what (?:will|is going to) happen|move on)\b/],
	['lookAtCamera', /\blook (?:at|into) the camera\b/],
	['wait', /\b(?:to wait|please wait|one moment|hold on)\b/],
	['thank', /\bthank/],
	['complete', /\b(?:(?:verification|process|session|it) (?:is |has been )?(?:complete|completed|finished|done|over)|all done)\b/],
	['goodbye', /\b(?:goodbye|good bye|bye|farewell|say goodbye|end the (?:conversation|call|session))\b/]
];

// A goal that asks for something replaces the generic asks that its own words would also trigger:
// "ask them to confirm their e-mail" is a confirmation, not a request for the e-mail.
const SUPERSEDES: Partial<Record<Goal, Goal[]>> = {
	askConfirm: ['askName', 'askEmail', 'askPhone', 'askDateOfBirth', 'askAge', 'askConsent'],
	askDateOfBirth: ['askAge'],
	nextFace: ['nextStep', 'lookAtCamera'],
	nextDocument: ['nextStep'],
	nextCode: ['nextStep', 'askEmail'],
	complete: ['nextStep']
};

/** The goals a prompt expresses, in the order the prompt mentions them. */
export function recogniseGoals(prompt: string): Goal[] {
	const text = prompt.toLowerCase().replace(/[’']/g, "'");
	const found: { goal: Goal; at: number }[] = [];
	for (const [goal, pattern] of GOAL_PATTERNS) {
		const m = pattern.exec(text);
		if (m) found.push({ goal, at: m.index });
	}
	const goals = new Set(found.map((f) => f.goal));
	for (const goal of [...goals]) for (const dropped of SUPERSEDES[goal] ?? []) goals.delete(dropped);
	return found.filter((f) => goals.has(f.goal)).sort((a, b) => a.at - b.at).map((f) => f.goal);
}

type Lines = Record<Goal | 'greetNamed' | 'sorry', string>;

const PHRASES: Record<SupportedLang, Lines> = {
	en: { greet: 'Hello!', greetNamed: 'Hello, {name}!', introduce: "I'm your virtual assistant, and I'll guide you through the verification.", howAreYou: 'How are you today?', askReady: 'Are you ready to begin?', askName: 'What is your name?', askEmail: 'What is your e-mail address?', askPhone: 'What is your phone number?', askDateOfBirth: 'What is your date of birth?', askAge: 'How old are you?', askConsent: 'Do you agree to continue with the verification?', askConfirm: 'Is that correct?', nextFace: "Next, we'll take a quick photo of your face.", nextDocument: "Next, we'll scan your identity document.", nextCode: "Next, we'll send you a code to confirm your e-mail address.", nextStep: "Let's move on to the next step.", lookAtCamera: 'Please look at the camera.', wait: 'Please wait a moment.', thank: 'Thank you!', complete: 'Your verification is complete.', goodbye: 'Goodbye, and have a nice day!', sorry: "Sorry, I didn't catch that." },
	it: { greet: 'Ciao!', greetNamed: 'Ciao, {name}!', introduce: 'Sono il tuo assistente virtuale e ti guiderò nella verifica.', howAreYou: 'Come stai oggi?', askReady: 'Possiamo iniziare?', askName: 'Come ti chiami?', askEmail: 'Qual è il tuo indirizzo e-mail?', askPhone: 'Qual è il tuo numero di telefono?', askDateOfBirth: 'Qual è la tua data di nascita?', askAge: 'Quanti anni hai?', askConsent: 'Accetti di proseguire con la verifica?', askConfirm: 'È corretto?', nextFace: 'Ora scatteremo una rapida foto del tuo viso.', nextDocument: "Ora scansioneremo il tuo documento d'identità.", nextCode: 'Ora ti invieremo un codice per confermare il tuo indirizzo e-mail.', nextStep: 'Passiamo al prossimo passaggio.', lookAtCamera: 'Guarda la fotocamera, per favore.', wait: 'Attendi un momento, per favore.', thank: 'Grazie!', complete: 'La verifica è completata.', goodbye: 'Arrivederci e buona giornata!', sorry: 'Scusa, non ho capito.' },
	de: { greet: 'Hallo!', greetNamed: 'Hallo, {name}!', introduce: 'Ich bin Ihr virtueller Assistent und begleite Sie durch die Prüfung.', howAreYou: 'Wie geht es Ihnen heute?', askReady: 'Sind Sie bereit anzufangen?', askName: 'Wie heißen Sie?', askEmail: 'Wie lautet Ihre E-Mail-Adresse?', askPhone: 'Wie lautet Ihre Telefonnummer?', askDateOfBirth: 'Wie lautet Ihr Geburtsdatum?', askAge: 'Wie alt sind Sie?', askConsent: 'Sind Sie einverstanden, mit der Prüfung fortzufahren?', askConfirm: 'Ist das richtig?', nextFace: 'Als Nächstes machen wir ein kurzes Foto Ihres Gesichts.', nextDocument: 'Als Nächstes scannen wir Ihr Ausweisdokument.', nextCode: 'Als Nächstes senden wir Ihnen einen Code, um Ihre E-Mail-Adresse zu bestätigen.', nextStep: 'Gehen wir zum nächsten Schritt.', lookAtCamera: 'Bitte schauen Sie in die Kamera.', wait: 'Bitte warten Sie einen Moment.', thank: 'Vielen Dank!', complete: 'Ihre Prüfung ist abgeschlossen.', goodbye: 'Auf Wiedersehen und einen schönen Tag!', sorry: 'Entschuldigung, das habe ich nicht verstanden.' },
	fr: { greet: 'Bonjour !', greetNamed: 'Bonjour {name} !', introduce: 'Je suis votre assistant virtuel et je vais vous guider pendant la vérification.', howAreYou: "Comment allez-vous aujourd'hui ?", askReady: 'Pouvons-nous commencer ?', askName: 'Comment vous appelez-vous ?', askEmail: 'Quelle est votre adresse e-mail ?', askPhone: 'Quel est votre numéro de téléphone ?', askDateOfBirth: 'Quelle est votre date de naissance ?', askAge: 'Quel âge avez-vous ?', askConsent: 'Acceptez-vous de poursuivre la vérification ?', askConfirm: 'Est-ce correct ?', nextFace: 'Ensuite, nous allons prendre une photo rapide de votre visage.', nextDocument: "Ensuite, nous allons scanner votre pièce d'identité.", nextCode: 'Ensuite, nous allons vous envoyer un code pour confirmer votre adresse e-mail.', nextStep: "Passons à l'étape suivante.", lookAtCamera: 'Veuillez regarder la caméra.', wait: 'Veuillez patienter un instant.', thank: 'Merci !', complete: 'Votre vérification est terminée.', goodbye: 'Au revoir et bonne journée !', sorry: "Désolé, je n'ai pas bien compris." },
	es: { greet: '¡Hola!', greetNamed: '¡Hola, {name}!', introduce: 'Soy tu asistente virtual y te guiaré durante la verificación.', howAreYou: '¿Cómo estás hoy?', askReady: '¿Podemos empezar?', askName: '¿Cómo te llamas?', askEmail: '¿Cuál es tu correo electrónico?', askPhone: '¿Cuál es tu número de teléfono?', askDateOfBirth: '¿Cuál es tu fecha de nacimiento?', askAge: '¿Cuántos años tienes?', askConsent: '¿Aceptas continuar con la verificación?', askConfirm: '¿Es correcto?', nextFace: 'Ahora haremos una foto rápida de tu cara.', nextDocument: 'Ahora escanearemos tu documento de identidad.', nextCode: 'Ahora te enviaremos un código para confirmar tu correo electrónico.', nextStep: 'Pasemos al siguiente paso.', lookAtCamera: 'Mira a la cámara, por favor.', wait: 'Espera un momento, por favor.', thank: '¡Gracias!', complete: 'Tu verificación se ha completado.', goodbye: '¡Adiós y que tengas un buen día!', sorry: 'Perdona, no te he entendido.' },
	pt: { greet: 'Olá!', greetNamed: 'Olá, {name}!', introduce: 'Sou seu assistente virtual e vou guiar você na verificação.', howAreYou: 'Como você está hoje?', askReady: 'Podemos começar?', askName: 'Qual é o seu nome?', askEmail: 'Qual é o seu e-mail?', askPhone: 'Qual é o seu número de telefone?', askDateOfBirth: 'Qual é a sua data de nascimento?', askAge: 'Quantos anos você tem?', askConsent: 'Você concorda em continuar com a verificação?', askConfirm: 'Está correto?', nextFace: 'Agora vamos tirar uma foto rápida do seu rosto.', nextDocument: 'Agora vamos escanear seu documento de identidade.', nextCode: 'Agora vamos enviar um código para confirmar seu e-mail.', nextStep: 'Vamos para a próxima etapa.', lookAtCamera: 'Olhe para a câmera, por favor.', wait: 'Aguarde um momento, por favor.', thank: 'Obrigado!', complete: 'Sua verificação foi concluída.', goodbye: 'Até logo e tenha um ótimo dia!', sorry: 'Desculpe, não entendi.' },
	ru: { greet: 'Здравствуйте!', greetNamed: 'Здравствуйте, {name}!', introduce: 'Я ваш виртуальный ассистент и проведу вас через проверку.', howAreYou: 'Как у вас дела?', askReady: 'Вы готовы начать?', askName: 'Как вас зовут?', askEmail: 'Какой у вас адрес электронной почты?', askPhone: 'Какой у вас номер телефона?', askDateOfBirth: 'Какая у вас дата рождения?', askAge: 'Сколько вам лет?', askConsent: 'Вы согласны продолжить проверку?', askConfirm: 'Всё верно?', nextFace: 'Дальше мы быстро сфотографируем ваше лицо.', nextDocument: 'Дальше мы отсканируем ваш документ, удостоверяющий личность.', nextCode: 'Дальше мы отправим вам код для подтверждения адреса электронной почты.', nextStep: 'Переходим к следующему шагу.', lookAtCamera: 'Пожалуйста, посмотрите в камеру.', wait: 'Пожалуйста, подождите немного.', thank: 'Спасибо!', complete: 'Проверка завершена.', goodbye: 'До свидания, хорошего дня!', sorry: 'Извините, не удалось разобрать ответ.' },
	ja: { greet: 'こんにちは！', greetNamed: '{name}さん、こんにちは！', introduce: '私はバーチャルアシスタントです。確認の手順をご案内します。', howAreYou: '今日のご気分はいかがですか？', askReady: '始める準備はできましたか？', askName: 'お名前を教えていただけますか？', askEmail: 'メールアドレスを教えてください。', askPhone: '電話番号を教えてください。', askDateOfBirth: '生年月日を教えてください。', askAge: 'おいくつですか？', askConsent: '確認を続けることに同意しますか？', askConfirm: 'よろしいですか？', nextFace: '次に、お顔の写真を撮影します。', nextDocument: '次に、本人確認書類を読み取ります。', nextCode: '次に、メールアドレスを確認するためのコードをお送りします。', nextStep: '次のステップに進みましょう。', lookAtCamera: 'カメラを見てください。', wait: '少々お待ちください。', thank: 'ありがとうございます！', complete: '本人確認が完了しました。', goodbye: 'さようなら。良い一日をお過ごしください。', sorry: 'すみません、聞き取れませんでした。' },
	id: { greet: 'Halo!', greetNamed: 'Halo, {name}!', introduce: 'Saya asisten virtual Anda dan akan memandu Anda selama verifikasi.', howAreYou: 'Apa kabar hari ini?', askReady: 'Apakah Anda siap untuk mulai?', askName: 'Siapa nama Anda?', askEmail: 'Apa alamat email Anda?', askPhone: 'Berapa nomor telepon Anda?', askDateOfBirth: 'Kapan tanggal lahir Anda?', askAge: 'Berapa usia Anda?', askConsent: 'Apakah Anda setuju untuk melanjutkan verifikasi?', askConfirm: 'Apakah itu benar?', nextFace: 'Selanjutnya, kami akan mengambil foto wajah Anda sebentar.', nextDocument: 'Selanjutnya, kami akan memindai dokumen identitas Anda.', nextCode: 'Selanjutnya, kami akan mengirim kode untuk mengonfirmasi alamat email Anda.', nextStep: 'Mari lanjut ke langkah berikutnya.', lookAtCamera: 'Silakan lihat ke kamera.', wait: 'Mohon tunggu sebentar.', thank: 'Terima kasih!', complete: 'Verifikasi Anda sudah selesai.', goodbye: 'Sampai jumpa, semoga hari Anda menyenangkan!', sorry: 'Maaf, saya kurang menangkapnya.' },
	no: { greet: 'Hei!', greetNamed: 'Hei, {name}!', introduce: 'Jeg er den virtuelle assistenten din, og jeg hjelper deg gjennom bekreftelsen.', howAreYou: 'Hvordan har du det i dag?', askReady: 'Er du klar til å begynne?', askName: 'Hva heter du?', askEmail: 'Hva er e-postadressen din?', askPhone: 'Hva er telefonnummeret ditt?', askDateOfBirth: 'Hva er fødselsdatoen din?', askAge: 'Hvor gammel er du?', askConsent: 'Godtar du å fortsette med bekreftelsen?', askConfirm: 'Stemmer det?', nextFace: 'Nå tar vi et raskt bilde av ansiktet ditt.', nextDocument: 'Nå skanner vi identitetsdokumentet ditt.', nextCode: 'Nå sender vi deg en kode for å bekrefte e-postadressen din.', nextStep: 'La oss gå videre til neste trinn.', lookAtCamera: 'Se inn i kameraet.', wait: 'Vent et øyeblikk.', thank: 'Tusen takk!', complete: 'Bekreftelsen er fullført.', goodbye: 'Ha det bra, og ha en fin dag!', sorry: 'Beklager, det fikk jeg ikke med meg.' },
	zh: { greet: '您好！', greetNamed: '{name}，您好！', introduce: '我是您的虚拟助手，将引导您完成验证。', howAreYou: '您今天好吗？', askReady: '您准备好开始了吗？', askName: '请问您叫什么名字？', askEmail: '请问您的电子邮箱地址是什么？', askPhone: '请问您的电话号码是多少？', askDateOfBirth: '请问您的出生日期是哪天？', askAge: '请问您今年多大？', askConsent: '您同意继续进行验证吗？', askConfirm: '这样正确吗？', nextFace: '接下来，我们会快速拍一张您的面部照片。', nextDocument: '接下来，我们会扫描您的身份证件。', nextCode: '接下来，我们会发送验证码以确认您的电子邮箱地址。', nextStep: '我们进入下一步。', lookAtCamera: '请看着摄像头。', wait: '请稍等。', thank: '谢谢您！', complete: '您的验证已完成。', goodbye: '再见，祝您愉快！', sorry: '抱歉，我没听清楚。' },
	'zh-TW': { greet: '您好！', greetNamed: '{name}，您好！', introduce: '我是您的虛擬助理，將引導您完成驗證。', howAreYou: '您今天好嗎？', askReady: '您準備好開始了嗎？', askName: '請問您叫什麼名字？', askEmail: '請問您的電子郵件地址是什麼？', askPhone: '請問您的電話號碼是多少？', askDateOfBirth: '請問您的出生日期是哪一天？', askAge: '請問您今年幾歲？', askConsent: '您同意繼續進行驗證嗎？', askConfirm: '這樣正確嗎？', nextFace: '接下來，我們會快速拍一張您的臉部相片。', nextDocument: '接下來，我們會掃描您的身分證件。', nextCode: '接下來，我們會傳送驗證碼以確認您的電子郵件地址。', nextStep: '我們進入下一步。', lookAtCamera: '請看著鏡頭。', wait: '請稍候。', thank: '謝謝您！', complete: '您的驗證已完成。', goodbye: '再見，祝您有美好的一天！', sorry: '抱歉，我沒聽清楚。' },
	'zh-HK': { greet: '你好！', greetNamed: '{name}，你好！', introduce: '我是你的虛擬助理，會帶你完成核實。', howAreYou: '你今日好嗎？', askReady: '你準備好開始了嗎？', askName: '請問你叫甚麼名字？', askEmail: '請問你的電郵地址是甚麼？', askPhone: '請問你的電話號碼是多少？', askDateOfBirth: '請問你的出生日期是哪一天？', askAge: '請問你今年幾多歲？', askConsent: '你同意繼續進行核實嗎？', askConfirm: '這樣正確嗎？', nextFace: '接下來，我們會快速拍一張你的面部相片。', nextDocument: '接下來，我們會掃描你的身份證明文件。', nextCode: '接下來，我們會傳送驗證碼以確認你的電郵地址。', nextStep: '我們進入下一步。', lookAtCamera: '請望向鏡頭。', wait: '請稍候。', thank: '多謝你！', complete: '你的核實已完成。', goodbye: '再見，祝你有美好的一天！', sorry: '對不起，我聽不清楚。' }
};

/** Spoken lines for the goals in the session language; `name` personalises the greeting. */
export function phrasesFor(goals: readonly Goal[], lang: SupportedLang, name?: string): string[] {
	const lines = PHRASES[lang];
	return goals.map((goal) =>
		goal === 'greet' && name ? lines.greetNamed.replace('{name}', name) : lines[goal]
	);
}

export function sorryLine(lang: SupportedLang): string {
	return PHRASES[lang].sorry;
}

export const PHRASEBOOK_LANGS = Object.keys(PHRASES) as SupportedLang[];
