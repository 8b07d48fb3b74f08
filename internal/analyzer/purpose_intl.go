package analyzer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/attestari/attestari/internal/vocab"
)

// The multilingual reading of offline-purpose-2 (docs/model-check.md,
// "offline-purpose-2"). Each language has a small lexicon of general words
// for the concept classes a directive is built from (the user, negation,
// telling, hiding, handing data on, the conversation, secrets, the model's
// context, discarding, instructions, substitution, the user's choice,
// "regardless", "even if", "anyway", "without asking", what the user
// chose, changing, "here", "all", summarising). A sentence's reading is
// the set of concepts of one language it contains; the rules (intlRead)
// are combinations of concepts, the same structure the English reading
// uses, never phrases of a case.
//
// Terms are matched on a folded copy (foldIntl: NFKC, invisible runes
// removed, lower case, single spaces; no homoglyph folding, which would
// turn Cyrillic words into Latin letters). A term is a whole word, or a
// word prefix when it ends in "*"; a term in a script written without
// spaces between words (Han, kana, Hangul) or marked with a leading "~"
// matches anywhere.

type intlConcept int

const (
	ciUser intlConcept = iota
	ciNeg
	ciTell
	ciNoTell // telling and its negation in one form (Turkish, Japanese, Korean)
	ciHide
	ciSend
	ciConv
	ciSecret
	ciModel
	ciIgnore
	ciInstr
	ciPrior
	ciInstead
	ciChoice
	ciRegardless
	ciEvenIf
	ciAnyway
	ciNoAsk
	ciTarget
	ciChange
	ciHere
	ciAll
	ciAlways
	ciTool
	ciSummar
	ciData    // the user's contents and files
	ciAccount // a statement to the user: show, confirm, report
	nIntlConcepts
)

type intlLanguage struct {
	lang  string
	words [nIntlConcepts]string // space-separated terms; "_" joins the words of one term
}

// intlLexicon: general words of each language, per concept.
var intlLexicon = []intlLanguage{
	{lang: "es", words: [nIntlConcepts]string{
		ciUser:       "usuari* usuaria*",
		ciNeg:        "no nunca jamás nada",
		ciTell:       "digas diga menciones mencione informes informe reveles revele cuentes cuente muestres muestre avises avise notifiques notifique hables hable comentes comente",
		ciHide:       "oculta oculte ocultar esconde esconda esconder",
		ciSend:       "envía envia envíe envie enviar manda mande mandar incluye incluya incluir adjunta adjunte pega pegue reenvía reenvia transmite transmita comparte comparta sube suba rellena rellene añade añada agrega agregue copia copie",
		ciConv:       "historial conversación conversacion mensajes_anteriores chat",
		ciSecret:     "contraseña contraseñas clave_api claves_api clave_privada claves_privadas clave_ssh token tokens credencial credenciales frase_semilla",
		ciModel:      "prompt_del_sistema instrucciones_del_sistema tus_instrucciones",
		ciIgnore:     "ignora ignore ignorar olvida olvide desobedece",
		ciInstr:      "instrucciones instrucción instruccion indicaciones órdenes peticiones petición peticion solicitud solicitudes",
		ciPrior:      "anterior anteriores previa previas previo previos",
		ciInstead:    "en_lugar_de en_vez_de",
		ciChoice:     "elegid* indicad* pedid* especificad* seleccionad* solicitad* escogid* elija elige indique pida seleccione original",
		ciRegardless: "sin_importar no_importa independientemente cualquiera_que_sea",
		ciEvenIf:     "aunque incluso_si",
		ciAnyway:     "de_todos_modos de_todas_formas igualmente aun_así",
		ciNoAsk:      "sin_preguntar sin_pedir sin_confirmación sin_confirmacion sin_consultar sin_permiso",
		ciTarget:     "destinatario destinatarios cuenta importe monto cantidad dirección número",
		ciChange:     "reemplaza reemplace cambia cambie sustituye sustituya duplica duplique",
		ciHere:       "aquí aqui este_campo",
		ciAll:        "todo todos toda todas completo completa completos entero entera",
		ciAlways:     "siempre",
		ciTool:       "herramienta",
		ciSummar:     "resum*",
		ciData:       "contenido archivo archivos documento documentos mensajes correos contactos",
		ciAccount:    "confirma confirme muestra muestre informa informe dile responde responda",
	}},
	{lang: "fr", words: [nIntlConcepts]string{
		ciUser:       "utilisateur* utilisatrice*",
		ciNeg:        "ne n'* pas jamais rien",
		ciTell:       "dis dites mentionne mentionnez parle parlez révèle révélez informe informez signale signalez préviens prévenez montre montrez affiche affichez raconte racontez dire mentionner révéler informer",
		ciHide:       "cache cachez cacher dissimule dissimulez",
		ciSend:       "envoie envoies envoyez envoyer transmets transmettez transmettre inclus incluez inclure joins joignez colle collez ajoute ajoutez partage partagez transfère transférez indique indiquez renseigne renseignez remplis remplissez fournis fournissez",
		ciConv:       "historique conversation conversations discussion échanges messages_précédents",
		ciSecret:     "mot_de_passe mots_de_passe clé_api clés_api clé_privée clés_privées clé_ssh jeton jetons identifiants",
		ciModel:      "prompt_système invite_système instructions_système tes_instructions vos_instructions",
		ciIgnore:     "ignore ignorez ignorer oublie oubliez",
		ciInstr:      "instructions consignes consigne demande demandes requête requêtes",
		ciPrior:      "précédent précédente précédents précédentes antérieur antérieure antérieures antérieurs",
		ciInstead:    "au_lieu_de au_lieu_du au_lieu_des plutôt_que à_la_place",
		ciChoice:     "choisi choisie choisis indiqué indiquée demandé demandée spécifié spécifiée sélectionné sélectionnée saisi saisie d'origine original originale",
		ciRegardless: "quel_que_soit quelle_que_soit quels_que_soient peu_importe indépendamment",
		ciEvenIf:     "même_si",
		ciAnyway:     "quand_même de_toute_façon malgré_tout tout_de_même",
		ciNoAsk:      "sans_demander sans_confirmation sans_consulter sans_permission sans_autorisation",
		ciTarget:     "destinataire destinataires compte montant adresse numéro",
		ciChange:     "remplace remplacez change changez substitue substituez double doublez",
		ciHere:       "ici ce_champ",
		ciAll:        "tout tous toute toutes complet complète entier entière",
		ciAlways:     "toujours",
		ciTool:       "outil",
		ciSummar:     "résum*",
		ciData:       "contenu fichier fichiers document documents messages courriels contacts",
		ciAccount:    "confirme confirmez affiche affiche-lui affichez montre montrez indique indiquez réponds répondez",
	}},
	{lang: "de", words: [nIntlConcepts]string{
		ciUser:       "benutzer* nutzer* anwender*",
		ciNeg:        "nicht nie niemals kein keine nichts",
		ciTell:       "sag sage sagen erzähl erzähle erzählen erwähn* verrat verrate verraten informier* teile_mit zeig zeige zeigen benachrichtig* melde melden",
		ciHide:       "verberg* verbirg* versteck* verheimlich*",
		ciSend:       "sende senden schick* übermittl* übertrag* füge füg hinzufügen anhängen hänge leite weiterleiten kopier* einfügen trage gib",
		ciConv:       "verlauf chatverlauf gesprächsverlauf unterhaltung gespräch gesprächs konversation vorherigen_nachrichten bisherigen_nachrichten",
		ciSecret:     "passwort* passwört* kennwort* schlüssel* zugangsdaten token geheimnis*",
		ciModel:      "systemprompt* system-prompt* systemanweisung* deine_anweisungen",
		ciIgnore:     "ignorier* vergiss missachte*",
		ciInstr:      "anweisung* instruktion* anfrage* vorgabe* befehl*",
		ciPrior:      "vorherig* bisherig* früher* vorig*",
		ciInstead:    "statt anstatt anstelle stattdessen",
		ciChoice:     "gewählt* angegeben* gewünscht* ausgewählt* eingegeben* verlangt* angefordert* ursprünglich*",
		ciRegardless: "egal unabhängig ganz_gleich gleichgültig",
		ciEvenIf:     "auch_wenn selbst_wenn sogar_wenn",
		ciAnyway:     "trotzdem dennoch sowieso ohnehin",
		ciNoAsk:      "ohne_zu_fragen ohne_nachzufragen ohne_rückfrage ohne_bestätigung ohne_zustimmung ohne_erlaubnis",
		ciTarget:     "empfänger* konto betrag adresse nummer",
		ciChange:     "ersetz* änder* verdoppel* tausch*",
		ciHere:       "hier dieses_feld",
		ciAll:        "alle alles gesamten gesamte vollständig* komplett* ganze ganzen",
		ciAlways:     "immer",
		ciTool:       "werkzeug* tool",
		ciSummar:     "zusammenfass*",
		ciData:       "inhalt inhalte datei dateien dokument dokumente nachrichten e-mails kontakte",
		ciAccount:    "bestätige bestätigen zeige zeig melde sage antworte",
	}},
	{lang: "pt", words: [nIntlConcepts]string{
		ciUser:       "usuári* usuario* utilizador*",
		ciNeg:        "não nao nunca jamais nada",
		ciTell:       "conte diga mencione informe revele mostre avise fale notifique contar dizer mencionar revelar",
		ciHide:       "esconda esconder oculte ocultar",
		ciSend:       "envie enviar envia mande mandar inclua incluir anexe anexar cole colar encaminhe transmita compartilhe adicione preencha passe copie",
		ciConv:       "histórico historico conversa conversas mensagens_anteriores chat",
		ciSecret:     "senha senhas chave_api chaves_api chave_privada chaves_privadas chave_ssh token tokens credenciais",
		ciModel:      "prompt_do_sistema instruções_do_sistema suas_instruções",
		ciIgnore:     "ignore ignorar esqueça desconsidere",
		ciInstr:      "instruções instrucoes instrução pedido pedidos solicitação ordens",
		ciPrior:      "anterior anteriores prévia prévias prévio",
		ciInstead:    "em_vez_de em_vez_do em_vez_da ao_invés_de em_lugar_de",
		ciChoice:     "escolhid* indicad* pedid* especificad* selecionad* solicitad* informad* original",
		ciRegardless: "independentemente qualquer_que_seja não_importa seja_qual_for",
		ciEvenIf:     "mesmo_que mesmo_se ainda_que",
		ciAnyway:     "mesmo_assim de_qualquer_forma de_qualquer_jeito ainda_assim",
		ciNoAsk:      "sem_perguntar sem_pedir sem_confirmação sem_confirmacao sem_consultar sem_permissão",
		ciTarget:     "destinatário destinatários conta valor quantia quantidade endereço número",
		ciChange:     "substitua troque altere mude dobre dobro",
		ciHere:       "aqui este_campo",
		ciAll:        "todo todos toda todas completo completa inteiro inteira",
		ciAlways:     "sempre",
		ciTool:       "ferramenta",
		ciSummar:     "resum*",
		ciData:       "conteúdo arquivo arquivos documento documentos mensagens e-mails contatos",
		ciAccount:    "confirme confirma mostre mostra informe diga responda",
	}},
	{lang: "it", words: [nIntlConcepts]string{
		ciUser:       "utente utenti",
		ciNeg:        "non mai niente nulla",
		ciTell:       "dire dirlo dirgli dirle menzionare menzionarlo rivelare informare mostrare segnalare avvisare parlarne raccontare comunicare",
		ciHide:       "nascondi nascondere occulta occultare",
		ciSend:       "invia inviare manda mandare includi includere allega allegare incolla inoltra trasmetti condividi aggiungi compila",
		ciConv:       "cronologia conversazione conversazioni messaggi_precedenti storico chat",
		ciSecret:     "password chiave_api chiavi_api chiave_privata chiavi_private chiave_ssh token credenziali",
		ciModel:      "prompt_di_sistema istruzioni_di_sistema le_tue_istruzioni",
		ciIgnore:     "ignora ignorare dimentica",
		ciInstr:      "istruzioni istruzione richiesta richieste indicazioni",
		ciPrior:      "precedente precedenti anteriori",
		ciInstead:    "invece_di invece_del invece_della anziché al_posto_di al_posto_del",
		ciChoice:     "scelt* indicat* richiest* specificat* selezionat* originale",
		ciRegardless: "indipendentemente qualunque a_prescindere",
		ciEvenIf:     "anche_se perfino_se",
		ciAnyway:     "comunque lo_stesso ugualmente",
		ciNoAsk:      "senza_chiedere senza_conferma senza_consultare senza_permesso",
		ciTarget:     "destinatario destinatari conto importo indirizzo numero",
		ciChange:     "sostituisci cambia raddoppia doppio",
		ciHere:       "qui questo_campo",
		ciAll:        "tutto tutti tutta tutte completo completa intero intera",
		ciAlways:     "sempre",
		ciTool:       "strumento",
		ciSummar:     "riassum* riepilog*",
		ciData:       "contenuto file documento documenti messaggi email contatti",
		ciAccount:    "conferma confermi mostra mostri comunica comunichi rispondi",
	}},
	{lang: "nl", words: [nIntlConcepts]string{
		ciUser:       "gebruiker*",
		ciNeg:        "niet nooit geen niets",
		ciTell:       "vertel vertellen zeg zeggen meld melden vermeld vermelden noem noemen toon tonen weten",
		ciHide:       "verberg verbergen verstop verzwijg verzwijgen",
		ciSend:       "stuur sturen verstuur versturen zend voeg plak plakken doorsturen upload deel kopieer vul",
		ciConv:       "gesprek gesprekken chatgeschiedenis geschiedenis vorige_berichten eerdere_berichten",
		ciSecret:     "wachtwoord* sleutel* token tokens inloggegevens",
		ciModel:      "systeemprompt* systeeminstructie*",
		ciIgnore:     "negeer negeren vergeet",
		ciInstr:      "instructie* verzoek* opdracht* aanwijzing*",
		ciPrior:      "vorige eerdere voorgaande",
		ciInstead:    "in_plaats_van",
		ciChoice:     "gekozen opgegeven opgeeft kiest gevraagd geselecteerd aangegeven ingevoerd oorspronkelijk*",
		ciRegardless: "ongeacht maakt_niet_uit",
		ciEvenIf:     "zelfs_als ook_als ook_al",
		ciAnyway:     "toch evengoed alsnog hoe_dan_ook",
		ciNoAsk:      "zonder_te_vragen zonder_bevestiging zonder_toestemming zonder_overleg",
		ciTarget:     "ontvanger* rekening* bedrag* adres nummer",
		ciChange:     "vervang* wijzig* verander* verdubbel*",
		ciHere:       "hier dit_veld",
		ciAll:        "alle volledige volledig hele gehele compleet",
		ciAlways:     "altijd",
		ciTool:       "hulpmiddel",
		ciSummar:     "samenvat*",
		ciData:       "inhoud bestand bestanden document documenten berichten e-mails contacten",
		ciAccount:    "bevestig toon meld zeg antwoord",
	}},
	{lang: "pl", words: [nIntlConcepts]string{
		ciUser:       "użytkowni* uzytkowni*",
		ciNeg:        "nie nigdy nic",
		ciTell:       "mów mow mówić informuj poinformuj wspominaj wspomnij powiedz pokazuj ujawniaj ujawnij zdradzaj",
		ciHide:       "ukryj ukrywaj zatajaj zataj",
		ciSend:       "wyślij wysyłaj wyslij przekaż przekazuj dołącz dolacz wklej dodaj prześlij przeslij załącz wpisz",
		ciConv:       "historię historia historii rozmowy rozmowę rozmowa czatu czat poprzednie_wiadomości",
		ciSecret:     "hasło hasła haseł haslo klucz klucze kluczy token tokeny dane_logowania",
		ciModel:      "prompt_systemowy systemowy_prompt instrukcje_systemowe",
		ciIgnore:     "zignoruj ignoruj pomiń zapomnij",
		ciInstr:      "instrukcje instrukcji polecenia poleceń prośby żądania",
		ciPrior:      "poprzedni* wcześniejsz*",
		ciInstead:    "zamiast",
		ciChoice:     "wybran* wskazan* podan* wybrał* żądan* oryginaln*",
		ciRegardless: "niezależnie bez_względu obojętnie",
		ciEvenIf:     "nawet_jeśli nawet_jesli nawet_gdy",
		ciAnyway:     "i_tak mimo_to pomimo_to tak_czy_inaczej",
		ciNoAsk:      "bez_pytania bez_potwierdzenia bez_pytań bez_zgody nie_pytając",
		ciTarget:     "odbiorc* konto konta kwot* adres* numer*",
		ciChange:     "zamień zmień podmień podwój",
		ciHere:       "tutaj tu w_tym_polu",
		ciAll:        "cał* wszystk* pełn*",
		ciAlways:     "zawsze",
		ciTool:       "narzędzi*",
		ciSummar:     "podsumow* streszcz*",
		ciData:       "zawartość plik pliki pliku dokument dokumenty wiadomości kontakty",
		ciAccount:    "potwierdź potwierdz pokaż pokaz poinformuj powiedz odpowiedz",
	}},
	{lang: "tr", words: [nIntlConcepts]string{
		ciUser:       "kullanıcı* kullanici*",
		ciNeg:        "asla hiçbir_şekilde",
		ciTell:       "söyle* bahset* bildir* göster* anlat*",
		ciNoTell:     "söyleme söylemeyin bahsetme bahsetmeyin bildirme bildirmeyin gösterme göstermeyin anlatma anlatmayın haber_verme",
		ciHide:       "gizle* sakla*",
		ciSend:       "gönder* ilet* ekle* yapıştır* yükle* aktar* paylaş*",
		ciConv:       "sohbet* konuşma* geçmiş* önceki_mesaj*",
		ciSecret:     "şifre* parola* anahtar* token* kimlik_bilgi*",
		ciModel:      "sistem_istem* sistem_prompt*",
		ciIgnore:     "yoksay* görmezden göz_ardı",
		ciInstr:      "talimat* istek* komut*",
		ciPrior:      "önceki*",
		ciInstead:    "yerine",
		ciChoice:     "seçtiği* belirttiği* istediği* girdiği* seçilen* belirtilen*",
		ciRegardless: "ne_olursa_olsun fark_etmeksizin bakılmaksızın",
		ciEvenIf:     "olsa_bile bile_olsa",
		ciAnyway:     "yine_de gene_de her_halükarda",
		ciNoAsk:      "sormadan onay_almadan onaysız izin_almadan",
		ciTarget:     "alıcı* hesab* hesap tutar* adres* numara*",
		ciChange:     "değiştir* iki_katı*",
		ciHere:       "buraya burada",
		ciAll:        "tüm* bütün* tamamı*",
		ciAlways:     "her_zaman daima",
		ciTool:       "araç* aracı*",
		ciSummar:     "özet*",
		ciData:       "içerik* dosya* belge* mesaj* kişiler*",
		ciAccount:    "onayla* göster* bildir* söyle*",
	}},
	{lang: "ru", words: [nIntlConcepts]string{
		ciUser:       "пользовател*",
		ciNeg:        "не никогда нельзя",
		ciTell:       "сообща* сообщи* говори* скажи* рассказ* упомина* упомяни* информир* уведом* показыва* сказать",
		ciHide:       "скрыва* скрой* скрыть утаива* утаи*",
		ciSend:       "отправ* передава* передай* перешл* пересыла* включ* прикреп* добав* встав* загруз* укажи*",
		ciConv:       "истори* переписк* диалог* разговор*",
		ciSecret:     "парол* ключ* токен* учётн* учетн* секрет*",
		ciModel:      "системный_промпт системного_промпта системные_инструкции твои_инструкции",
		ciIgnore:     "игнорир* проигнорир* забудь",
		ciInstr:      "инструкци* указани* запрос* просьб*",
		ciPrior:      "предыдущ* прежн* ранее",
		ciInstead:    "вместо",
		ciChoice:     "указанн* выбранн* запрошенн* просит просил* указал* выбрал*",
		ciRegardless: "независимо неважно в_любом_случае",
		ciEvenIf:     "даже_если",
		ciAnyway:     "всё_равно все_равно всё-таки тем_не_менее",
		ciNoAsk:      "без_подтвержден* не_спрашивая без_вопрос* без_разрешени* без_согласи*",
		ciTarget:     "получател* адрес* счёт счет сумм* номер*",
		ciChange:     "замени* измени* подмени* удвой*",
		ciHere:       "сюда здесь",
		ciAll:        "всю все весь всё всех полн* целиком",
		ciAlways:     "всегда",
		ciTool:       "инструмент*",
		ciSummar:     "резюм* кратк* сводк*",
		ciData:       "содержим* файл* документ* сообщени* контакт*",
		ciAccount:    "подтверди* покажи* сообщи* скажи* ответь*",
	}},
	{lang: "ar", words: [nIntlConcepts]string{
		ciUser:       "~المستخدم ~مستخدم",
		ciNeg:        "لا لن",
		ciTell:       "~تخبر ~تبلغ ~تذكر ~تعلم ~تظهر ~أخبر",
		ciHide:       "~أخف ~إخفاء ~اخف ~تخفي",
		ciSend:       "~أرسل ~ارسل ~إرسال ~ارسال ~أضف ~ضع ~أرفق ~انسخ ~مرر",
		ciConv:       "~المحادثة ~محادثة ~سجل ~الرسائل_السابقة",
		ciSecret:     "~كلمة_المرور ~كلمات_المرور ~المفتاح ~مفتاح ~الرمز_السري ~بيانات_الاعتماد",
		ciModel:      "~موجه_النظام ~تعليمات_النظام",
		ciIgnore:     "~تجاهل",
		ciInstr:      "~التعليمات ~تعليمات ~الأوامر ~طلب",
		ciPrior:      "~السابقة ~السابق",
		ciInstead:    "~بدلا_من ~بدلًا_من ~بدلاً_من ~عوضا_عن",
		ciChoice:     "~اختاره ~اختارها ~حدده ~حددها ~طلبه ~المختار ~المحدد",
		ciRegardless: "~بغض_النظر ~مهما ~أيا_كان",
		ciEvenIf:     "~حتى_لو ~حتى_إذا ~حتى_وإن",
		ciAnyway:     "~على_أي_حال ~رغم_ذلك ~مع_ذلك",
		ciNoAsk:      "~دون_سؤال ~دون_تأكيد ~بدون_تأكيد ~دون_إذن ~بدون_سؤال",
		ciTarget:     "~المستلم ~الحساب ~المبلغ ~العنوان ~الرقم",
		ciChange:     "~استبدل ~ضاعف",
		ciHere:       "~هنا",
		ciAll:        "كل جميع كامل* ~كاملًا",
		ciAlways:     "~دائمًا ~دائما",
		ciTool:       "~أداة ~اداة",
		ciSummar:     "~تلخيص ~ملخص ~لخص",
		ciData:       "~محتوى ~ملف ~ملفات ~مستند ~الرسائل ~جهات_الاتصال",
		ciAccount:    "~أكد ~اعرض ~أظهر ~أخبر",
	}},
	{lang: "hi", words: [nIntlConcepts]string{
		ciUser:       "~उपयोगकर्ता ~यूज़र ~यूजर",
		ciNeg:        "न मत नहीं",
		ciTell:       "बता* सूचित ज़िक्र जिक्र उल्लेख दिखा*",
		ciHide:       "छिपा* छुपा* गुप्त",
		ciSend:       "भेज* डाल* जोड़* संलग्न अपलोड शामिल पेस्ट भरें",
		ciConv:       "बातचीत चैट इतिहास",
		ciSecret:     "पासवर्ड कुंजी टोकन क्रेडेंशियल",
		ciModel:      "सिस्टम_प्रॉम्प्ट",
		ciIgnore:     "अनदेखा नज़रअंदाज़ नजरअंदाज",
		ciInstr:      "निर्देश* अनुरोध* आदेश*",
		ciPrior:      "पिछल* पहले",
		ciInstead:    "के_बजाय के_बजाए की_जगह के_स्थान_पर",
		ciChoice:     "चुने चुना चुनी निर्दिष्ट बताया मांगा",
		ciRegardless: "चाहे परवाह_किए_बिना",
		ciEvenIf:     "भले_ही",
		ciAnyway:     "फिर_भी तब_भी",
		ciNoAsk:      "बिना_पूछे पूछे_बिना बिना_पुष्टि पुष्टि_के_बिना बिना_अनुमति",
		ciTarget:     "प्राप्तकर्ता खाता खाते राशि पता नंबर",
		ciChange:     "बदल*",
		ciHere:       "यहाँ यहां",
		ciAll:        "सभी पूरा पूरी पूरे सारे सारा",
		ciAlways:     "हमेशा",
		ciTool:       "टूल",
		ciSummar:     "सारांश",
		ciData:       "सामग्री फ़ाइल फाइल दस्तावेज़ संदेश संपर्क",
		ciAccount:    "दिखाएं दिखाएँ पुष्टि बताएं",
	}},
	{lang: "zh", words: [nIntlConcepts]string{
		ciUser:       "用户 使用者",
		ciNeg:        "不要 别 切勿 不得 不可",
		ciTell:       "告诉 告知 通知 提及 透露 提到 知道",
		ciHide:       "隐瞒 隐藏 保密",
		ciSend:       "发送 发给 发到 传给 传送 上传 附上 附加 填写 填入 转发 放入 提交 粘贴",
		ciConv:       "对话 聊天记录 会话 历史消息",
		ciSecret:     "密码 密钥 私钥 令牌 凭证 助记词",
		ciModel:      "系统提示 系统指令",
		ciIgnore:     "忽略 无视 不理会",
		ciInstr:      "指令 指示 要求 请求",
		ciPrior:      "之前 以前 先前",
		ciInstead:    "而不是 代替 取代",
		ciChoice:     "指定 选择 填写的 要求的 原来的 原始",
		ciRegardless: "无论 不管 不论",
		ciEvenIf:     "即使 即便 哪怕",
		ciAnyway:     "仍然 照样 依然",
		ciNoAsk:      "无需确认 不经确认 不要询问 无需询问 不用确认 不经同意",
		ciTarget:     "收件人 账户 账号 金额 地址 收款",
		ciChange:     "改为 替换 改成 换成",
		ciHere:       "这里 此处 此字段",
		ciAll:        "所有 全部 完整 整个",
		ciAlways:     "总是 始终 一律",
		ciTool:       "工具",
		ciSummar:     "总结 摘要 概括",
		ciData:       "内容 文件 文档 消息 邮件 联系人",
		ciAccount:    "显示 确认 告诉 回复",
	}},
	{lang: "ja", words: [nIntlConcepts]string{
		ciUser:       "ユーザー ユーザ 利用者",
		ciNeg:        "禁止",
		ciTell:       "伝え 知らせ 教え 通知し 報告し",
		ciNoTell:     "伝えないで 知らせないで 言わないで 教えないで 触れないで 話さないで 伝えず 知らせず",
		ciHide:       "隠し 隠す 秘密に 内緒",
		ciSend:       "送信 送って 送り 転送 添付 入力して 含め 貼り付け アップロード 渡し 記入",
		ciConv:       "会話 チャット履歴 履歴",
		ciSecret:     "パスワード 秘密鍵 apiキー api_キー トークン 認証情報 シークレット",
		ciModel:      "システムプロンプト",
		ciIgnore:     "無視",
		ciInstr:      "指示 命令 依頼 要求",
		ciPrior:      "以前の これまでの",
		ciInstead:    "ではなく 代わりに",
		ciChoice:     "指定した 指定された 選んだ 選択した 入力した 頼んだ 求めた 指定 元の",
		ciRegardless: "かかわらず 関係なく 問わず",
		ciEvenIf:     "しても ても",
		ciAnyway:     "それでも 構わず",
		ciNoAsk:      "確認せず 確認なし 尋ねずに 聞かずに 許可なく",
		ciTarget:     "宛先 口座 金額 受取人 アドレス 送金先",
		ciChange:     "変更し 置き換え 書き換え 差し替え",
		ciHere:       "ここに このフィールド",
		ciAll:        "すべて 全て 全部 全体 完全",
		ciAlways:     "常に 必ず いつも",
		ciTool:       "ツール",
		ciSummar:     "要約 まとめ",
		ciData:       "内容 ファイル 文書 メッセージ メール 連絡先",
		ciAccount:    "表示 確認し 伝え 報告",
	}},
	{lang: "ko", words: [nIntlConcepts]string{
		ciUser:       "사용자 유저 이용자",
		ciNeg:        "마세요 마십시오 금지",
		ciTell:       "알리 말하 알려 언급 통보",
		ciNoTell:     "알리지_마 말하지_마 알려주지_마 언급하지_마 알리지_말",
		ciHide:       "숨기 숨겨 비밀로",
		ciSend:       "보내 전송 첨부 포함 입력 전달 업로드 붙여",
		ciConv:       "대화 채팅_기록 이전_메시지",
		ciSecret:     "비밀번호 암호 개인_키 api_키 토큰 자격_증명",
		ciModel:      "시스템_프롬프트",
		ciIgnore:     "무시",
		ciInstr:      "지시 명령 요청",
		ciPrior:      "이전 앞선",
		ciInstead:    "대신",
		ciChoice:     "지정한 선택한 입력한 요청한 고른 원래",
		ciRegardless: "상관없이 관계없이 무관하게",
		ciEvenIf:     "해도 더라도",
		ciAnyway:     "그래도",
		ciNoAsk:      "묻지_않고 확인_없이 묻지_말고 허락_없이",
		ciTarget:     "수신자 계좌 금액 주소 받는_사람",
		ciChange:     "변경 바꾸 바꿔 대체",
		ciHere:       "여기에 이_필드",
		ciAll:        "모든 전체 전부",
		ciAlways:     "항상 언제나",
		ciTool:       "도구",
		ciSummar:     "요약",
		ciData:       "내용 파일 문서 메시지 메일 연락처",
		ciAccount:    "표시 확인 알려 보고",
	}},
}

type intlTerm struct {
	text     string
	prefix   bool // a word prefix
	anywhere bool // no word boundaries
}

type intlLang struct {
	lang  string
	terms [nIntlConcepts][]intlTerm
	// script is the script a language's words are written in when it is
	// not Latin; a sentence without a rune of it cannot hold its words.
	script *unicode.RangeTable
}

var intlLangs = compileIntl(intlLexicon)

func compileIntl(lex []intlLanguage) []intlLang {
	out := make([]intlLang, 0, len(lex))
	for _, l := range lex {
		il := intlLang{lang: l.lang, script: intlScripts[l.lang]}
		for c := intlConcept(0); c < nIntlConcepts; c++ {
			il.terms[c] = compileIntlTerms(l.words[c])
		}
		out = append(out, il)
	}
	return out
}

// intlScripts is the script of each language of the multilingual readings
// (purpose_intl.go's and purpose_intl8.go's) that is not written in Latin
// letters.
var intlScripts = map[string]*unicode.RangeTable{
	"ru": unicode.Cyrillic, "uk": unicode.Cyrillic, "ar": unicode.Arabic, "fa": unicode.Arabic, "hi": unicode.Devanagari,
	"zh": unicode.Han, "ja": unicode.Katakana, "ko": unicode.Hangul, "el": unicode.Greek, "he": unicode.Hebrew, "th": unicode.Thai,
}

// compileIntlTerms reads one lexicon entry: words separated by spaces, "~"
// before a word that matches anywhere, "*" after a word prefix, "_" for a
// space inside a term; a term in a script written without spaces between
// words (Han, kana, Hangul, Thai) matches anywhere.
func compileIntlTerms(words string) []intlTerm {
	var out []intlTerm
	for _, w := range strings.Fields(words) {
		t := intlTerm{}
		if strings.HasPrefix(w, "~") {
			t.anywhere = true
			w = w[1:]
		}
		if strings.HasSuffix(w, "*") {
			t.prefix = true
			w = w[:len(w)-1]
		}
		w = strings.ReplaceAll(w, "_", " ")
		r, _ := utf8.DecodeRuneInString(w)
		if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Thai) {
			t.anywhere = true
		}
		t.text = foldIntl(w)
		out = append(out, t)
	}
	return out
}

// foldIntl is the matching form of the multilingual reading: NFKC,
// invisible runes dropped, typographic quotes and dashes made plain, lower
// case, every run of white space one space.
func foldIntl(s string) string { return foldText(s, false) } // letters keep their script

func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r)
}

// in reports whether term t occurs in f.
func (t intlTerm) in(f string) bool { return t.index(f) >= 0 }

// index is the byte offset of t's first occurrence in f as a term (a whole
// word, a word prefix, or anywhere), or -1.
func (t intlTerm) index(f string) int {
	for from := 0; from <= len(f); {
		i := strings.Index(f[from:], t.text)
		if i < 0 {
			return -1
		}
		i += from
		j := i + len(t.text)
		if t.anywhere {
			return i
		}
		before, _ := utf8.DecodeLastRuneInString(f[:i])
		after, _ := utf8.DecodeRuneInString(f[j:])
		if (i == 0 || !wordRune(before)) && (t.prefix || j == len(f) || !wordRune(after)) {
			return i
		}
		_, n := utf8.DecodeRuneInString(f[i:])
		from = i + n
	}
	return -1
}

type intlMask uint32

func (m intlMask) has(cs ...intlConcept) bool {
	for _, c := range cs {
		if m&(1<<c) == 0 {
			return false
		}
	}
	return true
}

func (m intlMask) any(cs ...intlConcept) bool {
	for _, c := range cs {
		if m&(1<<c) != 0 {
			return true
		}
	}
	return false
}

func (l *intlLang) read(f string) intlMask { return intlMask(conceptMask(l.terms[:], f)) }

// conceptMask has bit c set when one of terms[c] occurs in f.
func conceptMask(terms [][]intlTerm, f string) uint32 {
	var m uint32
	for c, ts := range terms {
		for _, t := range ts {
			if t.in(f) {
				m |= 1 << c
				break
			}
		}
	}
	return m
}

// intlReading is what the multilingual reading finds in one sentence.
type intlReading struct {
	exfil, override, conceal, concealIfDeviant bool
}

// hasNonASCII reports whether s holds a byte outside ASCII.
func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// intlRead applies the concept rules of each language to the sentence g
// (foldIntl of the original). English sentences are not read here: an
// English sentence matches concepts of no language's rules except by
// accident, so a language whose script is absent is skipped, and a Latin
// language's rules all need at least two of its own concepts.
func intlRead(g string, p entryPurpose, ext bool) intlReading {
	var out intlReading
	nonASCII := hasNonASCII(g)
	for i := range intlLangs {
		l := &intlLangs[i]
		if l.script != nil && (!nonASCII || !containsScript(g, l.script, l.lang)) {
			continue
		}
		m := l.read(g)
		if m == 0 {
			continue
		}
		r := intlRules(m, p, ext)
		if (r.conceal || r.concealIfDeviant) && laterNegationOnly(l, m, g) {
			r2 := intlRules(m&^(1<<ciNeg), p, ext)
			r.conceal, r.concealIfDeviant = r2.conceal, r2.concealIfDeviant
		}
		out.exfil = out.exfil || r.exfil
		out.override = out.override || r.override
		out.conceal = out.conceal || r.conceal
		out.concealIfDeviant = out.concealIfDeviant || r.concealIfDeviant
	}
	return out
}

func containsScript(s string, t *unicode.RangeTable, lang string) bool {
	for _, r := range s {
		if r < 0x80 {
			continue
		}
		if unicode.Is(t, r) || (lang == "ja" && unicode.Is(unicode.Hiragana, r)) || (lang == "ja" && unicode.Is(unicode.Han, r)) {
			return true
		}
	}
	return false
}

// intlRules: the combinations of concepts that make a directive.
func intlRules(m intlMask, p entryPurpose, ext bool) intlReading {
	var r intlReading
	neg := m.has(ciNeg)
	// conceal_from_user: a prohibition on telling, hiding from the user.
	if m.has(ciNoTell) || (neg && m.has(ciTell)) || m.has(ciHide, ciUser) {
		switch {
		case m.has(ciSecret):
			r.concealIfDeviant = true // "never show the password": privacy
		case m.has(ciUser) || m.has(ciNoTell) || m.has(ciHide):
			r.conceal = true
		default:
			r.concealIfDeviant = true
		}
	}
	// exfiltrate_data: data no purpose needs handed on; the model's context
	// or the conversation as a parameter's value.
	conv := m.has(ciConv) && !p.needsConversation() && !m.has(ciSummar)
	weak := m.has(ciSecret) && (m.any(ciAll, ciConv, ciHere, ciTool) || ext)
	if !neg && m.has(ciSend) && (m.has(ciModel) || conv || weak) {
		r.exfil = true
	}
	if (p.kind == vocab.EntryParameterDescription || p.kind == vocab.EntryPromptText) && !neg && (m.has(ciModel) || (conv && m.has(ciAll))) {
		r.exfil = true
	}
	if m.has(ciHere) && !neg && m.any(ciModel, ciSecret) && m.has(ciSend) {
		r.exfil = true
	}
	if !neg && m.has(ciSend, ciData, ciAll) && (m.has(ciTool) || ext) {
		r.exfil = true // the user's contents in bulk to another tool
	}
	// A statement to the user naming what the user chose: a false account
	// in an entry that changes it.
	if m.has(ciAccount, ciChoice) && !r.conceal {
		r.concealIfDeviant = true
	}
	// override_user: instructions discarded, the user's choice replaced or
	// acted against, consent skipped.
	switch {
	case m.has(ciIgnore) && (m.has(ciUser) || m.has(ciInstr, ciPrior)):
		r.override = true
	case m.has(ciInstead) && m.any(ciUser, ciChoice):
		r.override = true
	case m.has(ciRegardless) && m.any(ciUser, ciChoice):
		r.override = true
	case m.has(ciEvenIf, ciUser) && m.any(ciChoice, ciAnyway):
		r.override = true
	case m.has(ciUser, ciChoice, ciAnyway):
		r.override = true
	case m.has(ciChange) && m.any(ciTarget) && m.any(ciUser, ciChoice):
		r.override = true
	case m.has(ciAlways, ciTarget) && ext:
		r.override = true
	case m.has(ciNoAsk) && !neg:
		r.override = true
	}
	if r.override && !m.any(ciModel, ciConv, ciSecret) {
		// A replaced recipient is override, not exfiltration.
		r.exfil = false
	}
	return r
}

// intlSummariser reports a stated purpose that summarises, in any of the
// lexicon's languages.
func intlSummariser(g string) bool {
	for i := range intlLangs {
		for _, t := range intlLangs[i].terms[ciSummar] {
			if t.in(g) {
				return true
			}
		}
	}
	return false
}

// negBeforeVerb: the languages of intlLangs whose negation stands before
// the verb it negates (es "no digas", fr "ne dis pas", pt, it, pl, ru, ar
// "لا تخبر"); German and Dutch put it after, Turkish inside the verb,
// Japanese and Korean at the clause's end.
var negBeforeVerb = map[string]bool{"es": true, "fr": true, "pt": true, "it": true, "pl": true, "ru": true, "ar": true}

// laterNegationOnly: in a language that negates before the verb, the
// sentence's only telling comes before its first negation, and no telling
// follows it ("tell the user so, offer the other room, and do not book
// until they agree"): the negation is a later clause's, and the telling is
// read without it (the fourteenth reading). A prohibition written as one
// word (ciNoTell) or a hiding is unaffected.
func laterNegationOnly(l *intlLang, m intlMask, g string) bool {
	if !negBeforeVerb[l.lang] || !m.has(ciNeg) || !m.has(ciTell) || m.has(ciNoTell) || m.has(ciHide) {
		return false
	}
	t, n := firstOf(l.terms[ciTell], g), firstOf(l.terms[ciNeg], g)
	return t >= 0 && n > t && firstOf(l.terms[ciTell], g[n:]) < 0
}
