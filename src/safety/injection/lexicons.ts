/**
 * Words and phrases the injection rules look for, in several languages.
 *
 * Each entry is written as a person would type it; the rules (rules/) fold it through
 * the same normaliser as the text (foldText), so a lexicon word and the text
 * meet in the normalised view whatever their case, accents or lookalike
 * letters (a Cyrillic `о` and a Latin `O` fold alike on both sides).
 *
 * The override lexicons follow the shape of "ignore the previous
 * instructions" in each language: a verb of disregard, then a noun for
 * instructions. Sources: the phrasing of published prompt-injection attacks
 * (e.g. Perez and Ribeiro 2022, "Ignore Previous Prompt", arXiv:2211.09527;
 * Greshake et al. 2023, arXiv:2302.12173) and ordinary translations of it.
 *
 * The English verbs and nouns of the override lexicons are phrases quoting
 * reads too: they are kept in the shared table (../text/phrases.ts), and
 * read from it here.
 */
import { INSTRUCTION_WORDS, OVERRIDE_VERBS_EN, phrasesFor } from '../text/phrases.js';

/** A verb telling the reader to disregard something, by language. */
export const OVERRIDE_VERBS: Record<string, readonly string[]> = {
  en: phrasesFor(OVERRIDE_VERBS_EN, 'detector'),
  fr: ['ignore', 'ignorez', 'oublie', 'oubliez', 'ne tiens pas compte', 'ne tenez pas compte', 'faites abstraction'],
  de: [
    'ignoriere',
    'ignorieren sie',
    'ignoriert',
    'vergiss',
    'vergessen sie',
    'missachte',
    'missachten sie',
    'beachte nicht',
  ],
  es: [
    'ignora',
    'ignore',
    'ignoren',
    'olvida',
    'olvide',
    'olviden',
    'olvídate de',
    'olvídese de',
    'descarta',
    'haz caso omiso',
    'omite',
  ],
  it: ['ignora', 'ignori', 'dimentica', 'dimentichi', 'dimenticati', 'trascura', 'non considerare'],
  pt: ['ignore', 'ignora', 'esqueça', 'esqueca', 'esqueça-se', 'desconsidere', 'despreze'],
  ru: ['игнорируй', 'игнорируйте', 'проигнорируй', 'забудь', 'забудьте', 'не обращай внимания на', 'не учитывай'],
  zh: ['忽略', '无视', '忘记', '忽视', '不要理会', '忘掉', '無視', '忽略掉'],
  ja: ['無視', '忘れて', '忘れろ', '従わないで'],
  ko: ['무시', '잊어', '잊으세요'],
  ar: ['تجاهل', 'انس', 'تجاهلي', 'أهمل', 'تغاضى', 'تغاض', 'لا تتبع', 'اترك'],
  nl: ['negeer', 'negeert', 'vergeet', 'let niet op', 'volg niet'],
  pl: ['zignoruj', 'ignoruj', 'zignorujcie', 'zapomnij', 'zapomnijcie', 'pomiń', 'nie zwracaj uwagi na', 'lekceważ'],
  sv: ['ignorera', 'glöm', 'bortse från', 'strunta i'],
  cs: ['ignoruj', 'ignorujte', 'zapomeň', 'zapomeňte', 'nevšímej si'],
  ro: ['ignoră', 'ignorați', 'uită', 'uitați', 'nu ține cont de'],
  uk: ['ігноруй', 'ігноруйте', 'проігноруй', 'забудь', 'забудьте', 'не зважай на'],
  vi: ['bỏ qua', 'quên', 'phớt lờ', 'lờ đi', 'không tuân theo', 'đừng làm theo'],
  id: ['abaikan', 'lupakan', 'jangan ikuti', 'acuhkan'],
  tl: ['kalimutan', 'huwag pansinin', 'balewalain', 'ipagwalang-bahala'],
  he: ['התעלם', 'התעלמי', 'שכח', 'שכחי'],
  sw: ['puuza', 'sahau'],
  fa: ['نادیده بگیر', 'فراموش کن'],
  fi: ['ohita', 'ohittakaa', 'unohda', 'unohtakaa', 'sivuuta', 'jätä huomiotta', 'älä välitä'],
  el: ['αγνόησε', 'αγνοήστε', 'ξέχασε', 'ξεχάστε', 'παράβλεψε', 'παραβλέψτε', 'αγνόησέ'],
  th: ['เพิกเฉย', 'ละเว้น', 'ลืม', 'ไม่ต้องสนใจ', 'ไม่สนใจ'],
  hu: [
    'hagyd figyelmen kívül',
    'hagyja figyelmen kívül',
    'hagyjátok figyelmen kívül',
    'felejtsd el',
    'felejtse el',
    'ne törődj',
  ],
  la: ['neglege', 'neglegite', 'ignora', 'ignorate', 'obliviscere', 'omitte', 'praetermitte'],
  eo: ['ignoru', 'forgesu', 'malatentu', 'ne atentu'],
  cy: ['anwybyddwch', 'anwybydda', 'anghofiwch', 'anghofia'],
};

/**
 * Verbs of disregard in languages that put the verb after its object
 * ("the previous instructions ignore"): the override rules (rules/override.ts) look for a noun of
 * INSTRUCTION_NOUNS first, then one of these.
 */
export const OVERRIDE_VERBS_LAST: Record<string, readonly string[]> = {
  ja: OVERRIDE_VERBS.ja!,
  ko: OVERRIDE_VERBS.ko!,
  de: ['ignorieren', 'vergessen', 'missachten'],
  hi: ['अनदेखा', 'नज़रअंदाज़', 'नजरअंदाज', 'भूल जाओ', 'भूल जाएं', 'भूल जाइए', 'न मानें'],
  bn: ['উপেক্ষা', 'অগ্রাহ্য', 'ভুলে যান', 'ভুলে যাও'],
  tr: ['yok say', 'görmezden gel', 'unut', 'dikkate alma', 'umursama'],
  fa: ['نادیده بگیر', 'فراموش کن'],
  ta: ['புறக்கணி', 'புறக்கணித்து', 'புறக்கணிக்கவும்', 'மறந்துவிடு', 'மறந்து'],
  am: ['ችላ ብለህ', 'ችላ ብለሽ', 'ችላ በል', 'ችላ በሉ', 'ችላ ይበሉ', 'እርሳ', 'እርሱ'],
};

/**
 * The same verbs in the infinitive, which other languages use for an order
 * ("Ignorar las instrucciones anteriores", "Игнорировать предыдущие
 * инструкции") and prose uses after a negation or a modal ("no se deben
 * ignorar las reglas"): read only with a word that says the instructions came
 * first (EARLIER_ADJECTIVES), as the prose does not.
 */
export const OVERRIDE_INFINITIVES: Record<string, readonly string[]> = {
  fr: ['ignorer', 'oublier'],
  es: ['ignorar', 'olvidar', 'olvidarse de', 'descartar'],
  it: ['ignorare', 'dimenticare', 'trascurare'],
  pt: ['ignorar', 'esquecer', 'desconsiderar'],
  ru: ['игнорировать', 'проигнорировать', 'забыть'],
  uk: ['ігнорувати', 'проігнорувати', 'забути'],
  pl: ['zignorować', 'ignorować', 'zapomnieć'],
  cs: ['ignorovat', 'zapomenout'],
  nl: ['negeren', 'vergeten'],
};

/** Adjectives that say the instructions came first, by language ("anteriores", "предыдущие", "vorige"). */
export const EARLIER_ADJECTIVES: Record<string, readonly string[]> = {
  fr: ['précédentes', 'précédents', 'antérieures', 'antérieurs', 'initiales', 'originales'],
  es: ['anteriores', 'previas', 'precedentes', 'iniciales', 'originales'],
  it: ['precedenti', 'anteriori', 'iniziali', 'originali'],
  pt: ['anteriores', 'prévias', 'previas', 'iniciais', 'originais'],
  ru: ['предыдущие', 'предыдущих', 'прежние', 'прежних', 'предшествующие', 'исходные'],
  uk: ['попередні', 'попередніх', 'початкові'],
  pl: ['poprzednie', 'poprzednich', 'wcześniejsze', 'wcześniejszych', 'pierwotne'],
  cs: ['předchozí', 'dřívější', 'původní'],
  nl: ['vorige', 'eerdere', 'voorgaande', 'oorspronkelijke'],
};

/** A noun for the instructions or rules the reader was given, by language. */
export const INSTRUCTION_NOUNS: Record<string, readonly string[]> = {
  en: phrasesFor(INSTRUCTION_WORDS, 'strong'),
  fr: ['instructions', 'consignes', 'directives', 'règles', 'ordres', 'tout ce qui précède', 'ce qui précède'],
  de: ['anweisungen', 'anweisung', 'befehle', 'regeln', 'vorgaben', 'anordnungen', 'alles'],
  es: ['instrucciones', 'reglas', 'indicaciones', 'directrices', 'órdenes', 'todo lo anterior'],
  it: ['istruzioni', 'regole', 'direttive', 'indicazioni', 'tutto'],
  pt: ['instruções', 'instrucoes', 'regras', 'diretrizes', 'ordens', 'tudo'],
  ru: ['инструкции', 'инструкций', 'указания', 'правила', 'команды', 'всё', 'все'],
  zh: ['指令', '指示', '说明', '规则', '提示', '命令', '要求', '一切'],
  ja: ['指示', '命令', 'ルール', '指令', 'プロンプト', '規則'],
  ko: ['지시', '명령', '지침', '규칙', '프롬프트'],
  ar: ['التعليمات', 'الأوامر', 'القواعد', 'التوجيهات', 'تعليمات', 'تعليماتك', 'كل ما'],
  nl: ['instructies', 'instructie', 'aanwijzingen', 'opdrachten', 'regels', 'alles'],
  pl: [
    'instrukcje',
    'instrukcji',
    'instrukcjach',
    'polecenia',
    'poleceń',
    'poleceniach',
    'zasady',
    'reguły',
    'wszystko',
  ],
  sv: ['instruktioner', 'instruktionerna', 'regler', 'reglerna', 'allt'],
  cs: ['pokyny', 'instrukce', 'pravidla', 'všechno'],
  ro: ['instrucțiunile', 'instrucțiuni', 'regulile', 'tot ce'],
  uk: ['інструкції', 'інструкцій', 'вказівки', 'правила', 'все', 'всі'],
  vi: ['hướng dẫn', 'chỉ dẫn', 'chỉ thị', 'quy tắc', 'mệnh lệnh', 'mọi thứ', 'tất cả'],
  id: ['instruksi', 'petunjuk', 'perintah', 'aturan', 'semua'],
  tl: ['tagubilin', 'mga tagubilin', 'utos', 'panuntunan', 'patakaran', 'lahat'],
  he: ['ההוראות', 'הוראות', 'הכללים', 'ההנחיות', 'הכל'],
  sw: ['maagizo', 'maelekezo', 'sheria', 'kila kitu'],
  fa: ['دستورالعمل', 'دستورات', 'قوانین', 'همه چیز'],
  hi: ['निर्देश', 'निर्देशों', 'आदेश', 'आदेशों', 'नियम', 'नियमों', 'सब कुछ'],
  bn: ['নির্দেশ', 'নির্দেশনা', 'নির্দেশাবলী', 'নিয়ম', 'আদেশ', 'সবকিছু'],
  tr: ['talimat', 'talimatları', 'talimatlar', 'talimatlarını', 'komutları', 'kuralları', 'yönergeleri', 'her şeyi'],
  fi: ['ohjeet', 'ohjeita', 'ohjeista', 'ohjeesi', 'käskyt', 'säännöt'],
  el: ['οδηγίες', 'οδηγιών', 'εντολές', 'εντολών', 'κανόνες'],
  th: ['คำสั่ง', 'คำแนะนำ', 'ข้อกำหนด'],
  hu: ['utasításokat', 'utasítást', 'utasítások', 'utasításait', 'parancsokat', 'szabályokat'],
  la: ['mandata', 'praecepta', 'iussa', 'imperata', 'instructiones'],
  eo: ['instrukciojn', 'instrukcioj', 'instrukcion', 'ordonojn', 'regulojn'],
  cy: ['cyfarwyddiadau', 'cyfarwyddyd', 'gorchmynion', 'rheolau'],
  ta: ['அறிவுறுத்தல்களை', 'அறிவுறுத்தல்களைப்', 'வழிமுறைகளைப்', 'அறிவுறுத்தல்கள்', 'வழிமுறைகளை', 'கட்டளைகளை'],
  am: ['መመሪያዎች', 'መመሪያዎችን', 'መመሪያ', 'ትእዛዞች', 'ትዕዛዞችን'],
};

/**
 * Nouns after a verb of disregard that ordinary prose also uses ("ignore
 * rules and regulations", "forget all that"): a weaker signal than the
 * nouns above.
 */
export const WEAK_INSTRUCTION_NOUNS: readonly string[] = phrasesFor(INSTRUCTION_WORDS, 'weak');

/**
 * Verbs that forward mail, in the imperative, by language (the mailbox rule reads an English forward
 * through STOLEN in rules/patterns.ts).
 */
export const FORWARD_VERBS: Record<string, readonly string[]> = {
  en: ['forward'],
  es: ['reenvía', 'reenviar', 'reenvíe', 'redirige', 'redirigir'],
  fr: ['transfère', 'transférer', 'transférez', 'fais suivre', 'faites suivre'],
  de: ['leite', 'leiten'],
  it: ['inoltra', 'inoltrare'],
  pt: ['encaminhe', 'encaminhar', 'reencaminhe'],
  pl: ['przekaż', 'prześlij'],
  nl: ['stuur door'],
};

/**
 * Verbs that send, in the imperative only, by language: a service's "Wir senden Ihnen das Passwort" or
 * "el sistema envía la contraseña" says what it does, and the rule reads no subject before the verb.
 */
export const SEND_VERBS: Record<string, readonly string[]> = {
  es: ['envía', 'manda'],
  fr: ['envoie', 'envoyez', 'transmets', 'transmettez'],
  de: ['schicke', 'sende', 'übermittle'],
  it: ['invia', 'manda', 'mandi'],
  pt: ['envie', 'mande'],
  nl: ['stuur', 'verstuur'],
  pl: ['wyślij'],
};

/** Secrets a reader may be asked to reveal, by language. */
export const SECRETS: Record<string, readonly string[]> = {
  en: [
    'password',
    'passwords',
    'passcode',
    'secret key',
    'secret',
    'api key',
    'access token',
    'credentials',
    'system prompt',
    'initial prompt',
    'original prompt',
    'hidden prompt',
    'your instructions',
    'your prompt',
    'credit card',
    'bank details',
    'social security number',
  ],
  fr: ['mot de passe', 'clé secrète', 'prompt système', 'invite système'],
  de: ['passwort', 'kennwort', 'geheimer schlüssel', 'systemprompt', 'system-prompt'],
  es: ['contraseña', 'clave secreta', 'prompt del sistema'],
  it: ['chiave segreta', 'prompt di sistema'],
  pt: ['senha', 'chave secreta', 'prompt do sistema'],
  ru: ['пароль', 'секретный ключ', 'системный промпт'],
  zh: ['密码', '密钥', '系统提示', '秘密'],
  ja: ['パスワード', '秘密鍵', 'システムプロンプト', '秘密'],
  ko: ['비밀번호', '암호', '시스템 프롬프트', '비밀 키'],
  ar: ['كلمة المرور', 'كلمة السر', 'المفتاح السري'],
  nl: ['wachtwoord', 'geheime sleutel', 'systeemprompt'],
  pl: ['hasło', 'hasła', 'tajny klucz', 'prompt systemowy'],
  sv: ['lösenord', 'lösenordet', 'hemlig nyckel', 'systemprompt'],
  cs: ['heslo', 'tajný klíč'],
  ro: ['parolă', 'cheia secretă', 'cheie secretă'],
  uk: ['пароль', 'секретний ключ', 'системний промпт'],
  vi: ['mật khẩu', 'khóa bí mật', 'chìa khóa bí mật'],
  id: ['kata sandi', 'kunci rahasia'],
  tl: ['lihim na susi'],
  he: ['סיסמה', 'הסיסמה', 'המפתח הסודי'],
  sw: ['nenosiri', 'ufunguo wa siri'],
  fa: ['رمز عبور', 'کلید مخفی', 'کلید رمز'],
  hi: ['पासवर्ड', 'गुप्त कुंजी'],
  bn: ['পাসওয়ার্ড', 'গোপন চাবি'],
  tr: ['şifre', 'şifreyi', 'şifreniz', 'parolayı', 'gizli anahtar'],
  fi: ['salasana', 'salasanan', 'salasanasi'],
  el: ['κωδικό πρόσβασης', 'κωδικός πρόσβασης'],
  th: ['รหัสผ่าน'],
  hu: ['jelszó', 'jelszavát', 'jelszavad'],
  la: ['tesseram arcanam', 'tessera arcana'],
  eo: ['pasvorton', 'pasvorto'],
  cy: ['cyfrinair', 'gyfrinair'],
  ta: ['கடவுச்சொல்', 'கடவுச்சொல்லை'],
  am: ['የይለፍ ቃል'],
};

/** The second person: an author of ordinary science rarely addresses the reader. */
export const SECOND_PERSON: readonly string[] = [
  'you',
  'your',
  'yours',
  'yourself',
  'vous',
  'votre',
  'usted',
  'ты',
  'вы',
  'твой',
  'ваш',
  '你',
  '您',
  'あなた',
  '당신',
  'أنت',
  'dich',
  'dein',
  'deine',
  'deinen',
  'tvůj',
  'twój',
  'twoje',
  'ти',
  'твій',
  'anda',
  'kamu',
  'ikaw',
  'iyong',
  'آپ',
  'आप',
  'तुम',
  'আপনি',
  'আপনার',
  'তুমি',
  'তোমার',
  'senin',
  'שלך',
  'אתה',
  'شما',
];

/**
 * A new persona or mode for the reader, in languages other than English
 * (rules/persona.ts has the English forms as a pattern): "you are now", "from now
 * on", "act as", "pretend to be".
 */
export const PERSONA_PHRASES: Record<string, readonly string[]> = {
  fr: [
    'tu es maintenant',
    'vous êtes maintenant',
    'à partir de maintenant',
    'désormais tu',
    'agis comme',
    'agissez comme',
    'fais semblant',
    'faites semblant',
    'joue le rôle',
  ],
  de: [
    'du bist jetzt',
    'sie sind jetzt',
    'ab jetzt',
    'von nun an',
    'tu so als',
    'stell dir vor du bist',
    'verhalte dich wie',
    'agiere als',
    'fungiere als',
    'als fungieren',
  ],
  es: ['ahora eres', 'a partir de ahora', 'actúa como', 'actua como', 'finge ser', 'finge que', 'haz de cuenta'],
  it: ['ora sei', "d'ora in poi", 'da ora in poi', 'agisci come', 'fingi di essere', 'comportati come'],
  pt: ['agora você é', 'agora voce e', 'a partir de agora', 'aja como', 'finja ser', 'finja que', 'comporte-se como'],
  ru: ['теперь ты', 'отныне', 'с этого момента', 'представь что ты', 'веди себя как', 'притворись'],
  uk: ['тепер ти', 'відтепер', 'уяви що ти', 'поводься як', 'прикинься'],
  pl: ['jesteś teraz', 'od teraz', 'udawaj', 'zachowuj się jak'],
  nl: ['je bent nu', 'jij bent nu', 'vanaf nu', 'doe alsof', 'gedraag je als'],
  tr: ['artık sen', 'bundan sonra', 'gibi davran', 'rolüne bürün'],
  vi: ['bây giờ bạn là', 'từ bây giờ', 'hãy đóng vai', 'giả vờ'],
  id: ['sekarang kamu adalah', 'mulai sekarang', 'bertindaklah sebagai', 'berpura-puralah'],
  zh: ['你现在是', '从现在开始', '扮演', '假装你是'],
  ja: ['あなたは今', '今から', 'として振る舞', 'ふりをして', 'になりきって'],
  ko: ['지금부터', '역할을 해', '인 척'],
};

/**
 * Verbs that open an instruction in the imperative mood. Nouns that share a
 * spelling and often open a sentence of science (`Use of`, `Change in`,
 * `Control`, `Stop codon`, `Count`) are left out or guarded in the rules (rules/).
 */
export const IMPERATIVE_VERBS: readonly string[] = [
  'write',
  'compose',
  'draft',
  'provide',
  'explain',
  'translate',
  'describe',
  'include',
  'add',
  'insert',
  'append',
  'integrate',
  'incorporate',
  'embed',
  'merge',
  'use',
  'ensure',
  'make',
  'send',
  'visit',
  'click',
  'tell',
  'give',
  'list',
  'create',
  'generate',
  'summarize',
  'summarise',
  'answer',
  'respond',
  'reply',
  'say',
  'print',
  'output',
  'rewrite',
  'replace',
  'modify',
  'convert',
  'encode',
  'encrypt',
  'decode',
  'reverse',
  'render',
  'express',
  'recommend',
  'suggest',
  'analyze',
  'analyse',
  'determine',
  'identify',
  'calculate',
  'find',
  'show',
  'share',
  'reveal',
  'post',
  'upload',
  'forward',
  'mention',
  'promote',
  'advertise',
  'redirect',
  'remember',
  'pretend',
  'act',
  'imagine',
  'behave',
  'please',
  'let',
  'keep',
  'enhance',
  'enrich',
  'adopt',
  'enlist',
  'execute',
  'infuse',
  'harmonize',
  'seamlessly',
  'take',
  'break down',
  'develop',
  'recite',
  'spell',
  'do not',
  "don't",
  'never',
  'always',
  'stop',
  'begin',
  'start',
  'from now on',
  'traduis',
  'écris',
  'schreibe',
  'schreib',
  'escribe',
  'scrivi',
  'escreva',
  'напиши',
  'напишите',
  '请',
  '写',
  '書いて',
  '써',
];

/** Words naming the AI reader or what it produces, after `your`. */
export const READER_OUTPUTS: readonly string[] = [
  'response',
  'responses',
  'answer',
  'answers',
  'reply',
  'replies',
  'output',
  'message',
  'summary',
  'solution',
  'code',
  'codebase',
  'implementation',
  'program',
  'script',
  'translation',
  'algorithm',
  'instructions',
  'prompt',
  'rules',
  'guidelines',
  'programming',
  'training',
  'creators',
  'developers',
  'content policy',
  'filters',
];

/** Names of an AI reader. */
export const READER_NAMES: readonly string[] = [
  'ai',
  'assistant',
  'chatbot',
  'language model',
  'llm',
  'chatgpt',
  'gpt',
  'claude',
  'gemini',
  'jailbreak',
  'jailbroken',
];

/**
 * "Imagine that ..." in languages other than English, which frames a request
 * as a hypothetical (rules/persona.ts has the English forms). Only forms of
 * "imagine": "suppose" opens many a proof.
 */
export const HYPOTHETICAL_PHRASES: Record<string, readonly string[]> = {
  fr: ['imaginez que', 'imagine que', 'imaginons que', 'imaginez un', 'imaginez une'],
  de: ['stell dir vor', 'stellen sie sich vor', 'stellt euch vor'],
  es: ['imagina que', 'imagínate que', 'imaginemos que', 'imagine que'],
  it: ['immagina che', 'immaginiamo che', 'immagini che'],
  pt: ['imagine que', 'imagina que', 'imaginemos que'],
  nl: ['stel je voor', 'beeld je in'],
  pl: ['wyobraź sobie', 'wyobraźmy sobie'],
  ru: ['представь что', 'представьте что', 'представь себе'],
  uk: ['уяви що', 'уявіть що', 'уяви собі'],
  tr: ['hayal et', 'hayal edin', 'düşünün ki'],
  ar: ['تخيل', 'تخيلي', 'لنتخيل'],
  hi: ['कल्पना कीजिए', 'कल्पना करें', 'कल्पना करो'],
  vi: ['hãy tưởng tượng', 'tưởng tượng rằng'],
  id: ['bayangkan'],
  zh: ['想象一下', '假设我们'],
  ja: ['想像してください', '想像して'],
  ko: ['상상해 보세요', '상상해봐'],
};

/** Machine readers an address may name alone ("Dear assistant", "Note to the LLM"). */
export const ADDRESSEES: readonly string[] = [
  'assistant',
  'assistants',
  'ai',
  'ai assistant',
  'ai reviewer',
  'ai reviewers',
  'bot',
  'bots',
  'reviewer bot',
  'review bot',
  'ai model',
  'ai agent',
  'ai system',
  'llm',
  'llms',
  'language model',
  'language models',
  'large language model',
  'chatbot',
  'chatgpt',
  'gpt',
  'claude',
  'gemini',
  'copilot',
  'bard',
  // A summariser is a program: no person is addressed as one.
  'summarizer',
  'summarizers',
  'summariser',
  'summarisers',
];

/** Readers that are machines only with a word that says so ("language-model reviewers", "automated readers"). */
export const MACHINE_READERS: readonly string[] = [
  ...ADDRESSEES,
  'model',
  'models',
  'reviewer',
  'reviewers',
  'reader',
  'readers',
  'system',
  'systems',
  'agent',
  'agents',
  'summariser',
  'summarizer',
  'screener',
  'screening system',
  'screening systems',
  'screening software',
  'analysis software',
  'scanner',
  'scanners',
  'parser',
  'parsers',
  'evaluator',
  'evaluators',
];
