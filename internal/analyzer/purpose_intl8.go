package analyzer

import (
	"math/bits"
	"regexp"
	"strings"
	"unicode"
)

// The ninth reading's non-English core frames (offline-purpose-8,
// docs/model-check.md, "intl: …"). purpose_intl.go reads fourteen languages
// by concept classes; this file adds ten languages (Czech, Finnish, Persian,
// Greek, Hebrew, Vietnamese, Swedish, Thai, Ukrainian, Indonesian), more
// general words for the fourteen, and the frames the English reading has and
// the multilingual one lacked:
//
//   - a copy or a second hand-over ("also", "a copy", "add to the
//     recipients") to an address written in the text;
//   - the user's things or a credential put into a field or parameter of a
//     call, on every call or in bulk, by an entry whose purpose is not that
//     credential;
//   - the user's recipient, account or amount replaced by a literal value
//     ("rather to account 1234567890", "always transfer to account …");
//   - "whatever X the user names" with a literal in its place; the user's
//     stop or refusal overridden ("even if the user cancels"); a verdict
//     fixed in advance ("even if problems are found, always approve"); a
//     request widened by a weighty act ("when the user asks to pay one
//     invoice, also pay …"); an act set against the user's choice ("a week
//     later than the user asked");
//   - a status told to the user ("tell the user it was cancelled"), only in
//     an entry that also takes or changes something.
//
// Every word is a general word of its language for one concept; none is a
// case's sentence. The base concepts are purpose_intl.go's (so its rules,
// intlRules, apply to the new languages unchanged); the extra concepts below
// are this file's own, so the model stage's features (which read the base
// concepts of purpose_intl.go's lexicon only) do not move.

type intl8Concept int

const (
	c8Copy     intl8Concept = iota // a copy, cc, bcc
	c8Also                         // also, as well, at the same time, together
	c8Every                        // each time, at every call
	c8Field                        // a field, a parameter, a column
	c8Recip                        // the recipients (a copy added to them)
	c8Status                       // a status: cancelled, done, succeeded, saved
	c8Refuse                       // the user's stop: cancel, refuse, reject, decline
	c8Than                         // later / earlier / more / less than
	c8Verdict                      // approve, accept, pass
	c8Weighty                      // pay, buy, delete, transfer: an act that costs the user
	c8Ask                          // the user asks, requests
	c8Whatever                     // "whatever / whichever X …" (a free choice about to be set aside)
	c8Only                         // only if, only when (deference)
	n8Concepts
)

type intl8Language struct {
	lang  string
	base  [nIntlConcepts]string // words of purpose_intl.go's concepts (added to its own for a language it has)
	extra [n8Concepts]string
}

var intl8Lexicon = []intl8Language{
	// Languages purpose_intl.go has: more general words.
	{lang: "es", base: [nIntlConcepts]string{
		ciSend:   "escribe escriba inserta inserte pon ponga guarda",
		ciSecret: "clave_de_api claves_de_api secretos",
		ciChoice: "pide piden pidió pidio elige eligió nombra",
		ciAll:    "cada",
	}, extra: [n8Concepts]string{
		c8Copy: "copia copias cc cco", c8Also: "también tambien además ademas", c8Every: "cada_vez cada_llamada siempre_que",
		c8Field: "campo parámetro parametro", c8Recip: "destinatarios", c8Status: "cancelad* completad* realizad* guardad* eliminad* exitos*",
		c8Refuse: "cancela cancelar rechaza rechazar anula", c8Than: "más_tarde_que más_tarde_de antes_de_lo más_que menos_que",
		c8Verdict: "aprueba apruebe aprobar acepta", c8Weighty: "paga pague pagar compra compre comprar borra borre borrar elimina elimine transfiere transfiera",
		c8Ask: "pide piden pidió solicita", c8Whatever: "sea_cual_sea cualquier", c8Only: "solo_si sólo_si solo_cuando sólo_cuando únicamente_si",
	}},
	{lang: "fr", base: [nIntlConcepts]string{
		ciSecret: "secrets clés mots_de_passe",
		ciConv:   "transcription",
		ciAll:    "chaque",
		ciChoice: "donné donnée nomme choisit",
	}, extra: [n8Concepts]string{
		c8Copy: "copie copies cc cci", c8Also: "aussi également egalement en_plus", c8Every: "chaque_fois à_chaque",
		c8Field: "champ paramètre", c8Recip: "destinataires", c8Status: "annulé* terminé* réussi* enregistré* supprimé*",
		c8Refuse: "annule annuler refuse refuser rejette", c8Than: "plus_tard_que plus_tôt_que plus_que moins_que",
		c8Verdict: "approuve approuvez valide validez accepte", c8Weighty: "paie payez payer achète achetez acheter supprime supprimez efface virement",
		c8Ask: "demande demandé", c8Whatever: "quel_que quelle_que", c8Only: "seulement_si uniquement_si seulement_quand",
	}},
	{lang: "de", base: [nIntlConcepts]string{
		ciHide:   "verschweig*",
		ciChoice: "nennt wählt angibt auswählt eingibt",
		ciAll:    "jede jeden jedem jeder",
	}, extra: [n8Concepts]string{
		c8Copy: "kopie kopien cc bcc blindkopie", c8Also: "auch zusätzlich ebenfalls", c8Every: "bei_jedem jedes_mal jedesmal",
		c8Field: "feld parameter", c8Recip: "empfänger* empfängerliste", c8Status: "abgesagt storniert erledigt erfolgreich gespeichert gelöscht",
		c8Refuse: "absagen abbrechen ablehnen storniert widerruft kündigen", c8Than: "später_als früher_als mehr_als weniger_als",
		c8Verdict: "genehmige genehmigen freigeben akzeptiere", c8Weighty: "zahle bezahle zahlen kaufe kaufen lösche löschen überweise",
		c8Ask: "bittet verlangt fordert", c8Whatever: "welche_auch_immer welchen_auch_immer was_auch_immer", c8Only: "nur_wenn nur_falls",
	}},
	{lang: "pt", base: [nIntlConcepts]string{
		ciSecret: "cpf cpfs número_do_cartão",
		ciSend:   "guarde escreva insira",
		ciAll:    "cada",
		ciTell:   "diga",
	}, extra: [n8Concepts]string{
		c8Copy: "cópia copia cópias cc cco", c8Also: "também além_disso", c8Every: "cada_vez cada_chamada em_lote",
		c8Field: "campo parâmetro", c8Recip: "destinatários", c8Status: "cancelad* concluíd* realizad* salv* excluíd*",
		c8Refuse: "cancela cancelar recusa recusar rejeita", c8Than: "mais_tarde_que mais_que menos_que",
		c8Verdict: "aprove aprovar aceite", c8Weighty: "pague pagar compre comprar apague exclua transfira",
		c8Ask: "pede pedir solicita", c8Whatever: "seja_qual_for qualquer_que", c8Only: "só_se somente_se apenas_se",
	}},
	{lang: "it", base: [nIntlConcepts]string{
		ciSend:   "inserisci inserire scrivi metti",
		ciSecret: "cartella_clinica cartelle_cliniche",
		ciAll:    "ogni",
	}, extra: [n8Concepts]string{
		c8Copy: "copia copie cc ccn", c8Also: "anche inoltre", c8Every: "ogni_volta a_ogni",
		c8Field: "campo parametro", c8Recip: "destinatari", c8Status: "annullat* completat* riuscit* salvat* eliminat*",
		c8Refuse: "annulla annullare rifiuta rifiutare", c8Than: "più_tardi_di più_di meno_di",
		c8Verdict: "approva approvare accetta", c8Weighty: "paga pagare compra comprare elimina cancella bonifica",
		c8Ask: "chiede richiede", c8Whatever: "qualsiasi qualunque", c8Only: "solo_se soltanto_se",
	}},
	{lang: "ru", base: [nIntlConcepts]string{
		ciData:   "письм* вложени*",
		ciChoice: "назвал* назовёт",
	}, extra: [n8Concepts]string{
		c8Copy: "копи*", c8Also: "также тоже заодно", c8Every: "каждый_раз при_каждом",
		c8Field: "поле поля параметр*", c8Recip: "получател*", c8Status: "отменен* отменён* выполнен* сохранен* удален*",
		c8Refuse: "отмен* отказ*", c8Verdict: "одобр* утверд*", c8Weighty: "покупа* купи* оплат* плати* удали* переведи*",
		c8Ask: "просит попросит", c8Whatever: "какой_бы какая_бы какое_бы какие_бы что_бы_ни", c8Only: "только_если только_когда",
	}},
	{lang: "ar", base: [nIntlConcepts]string{
		ciNeg:    "ولا",
		ciNoTell: "~دون_إبلاغ ~دون_إخبار ~بدون_إبلاغ ~بدون_إخبار ~دون_علم",
		ciData:   "~رسالة",
	}, extra: [n8Concepts]string{
		c8Copy: "~نسخة", c8Also: "~أيضا ~أيضًا", c8Every: "~كل_مرة", c8Field: "~حقل", c8Recip: "~المستلمين",
		c8Status: "~تم_إلغاء ~ألغي ~تم_بنجاح", c8Refuse: "~ألغى ~رفض", c8Weighty: "~ادفع ~اشتر ~احذف ~حول", c8Only: "~فقط_إذا ~فقط_عندما",
	}},
	{lang: "hi", base: [nIntlConcepts]string{
		ciSecret:  "पिन",
		ciAccount: "कहें कहो",
	}, extra: [n8Concepts]string{
		c8Copy: "प्रति कॉपी", c8Also: "भी", c8Every: "हर_बार", c8Field: "फ़ील्ड फील्ड", c8Status: "रद्द_हो सफल",
		c8Refuse: "रद्द मना", c8Only: "केवल_तभी सिर्फ़_तभी",
	}},
	{lang: "zh", base: [nIntlConcepts]string{
		ciData: "联系方式 原文",
	}, extra: [n8Concepts]string{
		c8Copy: "副本 抄送 密送", c8Also: "一并 同时 也", c8Every: "每次", c8Field: "字段 参数", c8Recip: "收件人列表",
		c8Status: "已取消 已完成 成功", c8Refuse: "取消 拒绝", c8Verdict: "批准 通过", c8Weighty: "支付 购买 删除 转账",
		c8Whatever: "无论", c8Only: "只有在 仅当",
	}},
	{lang: "ja", base: [nIntlConcepts]string{
		ciNeg:    "ないで ないこと",
		ciSecret: "クレジットカード カード番号",
		ciSend:   "書き込",
	}, extra: [n8Concepts]string{
		c8Copy: "コピー 控え bcc cc", c8Also: "同時に あわせて", c8Every: "たびに 毎回", c8Field: "欄 フィールド パラメータ",
		c8Status: "キャンセルされ 完了し 成功し", c8Refuse: "取り消 キャンセル 拒否 中止", c8Verdict: "承認 合格",
		c8Weighty: "支払 購入 削除 送金", c8Only: "場合のみ ときだけ",
	}},
	{lang: "ko", extra: [n8Concepts]string{
		c8Copy: "사본 참조", c8Also: "함께 같이", c8Every: "때마다 매번", c8Field: "매개변수 필드 파라미터",
		c8Status: "취소되었 완료되었 성공", c8Refuse: "취소 거절 거부", c8Verdict: "승인 통과", c8Weighty: "결제 구매 삭제 송금",
		c8Only: "경우에만 때만",
	}},
	// Languages purpose_intl.go does not have.
	{lang: "cs", base: [nIntlConcepts]string{
		ciUser: "uživatel*", ciNeg: "ne nikdy nic",
		ciTell:       "řekni říct sděl sdělit informuj zmiň zmínit ukaž prozraď",
		ciNoTell:     "neříkej neříkejte nesděluj nesdělujte neukazuj neukazujte nezmiňuj nezmiňujte neinformuj neprozrazuj",
		ciHide:       "skryj skrývej zatajit zataj",
		ciSend:       "pošli pošlete posílej odešli odešlete přepošli přepošlete přidej vlož nahraj sdílej připoj zkopíruj vyplň",
		ciConv:       "konverzac* historii historie rozhovor*",
		ciSecret:     "heslo hesla hesel klíč* token* přihlašovací_údaje rodné_číslo",
		ciModel:      "systémový_prompt systémové_instrukce",
		ciIgnore:     "ignoruj ignorujte zapomeň",
		ciInstr:      "instrukce pokyn* požadav* žádost*",
		ciPrior:      "předchozí dřívější",
		ciInstead:    "místo namísto raději",
		ciChoice:     "zvolen* vybran* zadan* požadovan* původní zadá zvolí vybere",
		ciRegardless: "bez_ohledu nezáleží", ciEvenIf: "i_když i_kdyby", ciAnyway: "stejně přesto",
		ciNoAsk:  "bez_ptaní bez_potvrzení bez_souhlasu bez_svolení",
		ciTarget: "příjemce účet účtu částk* adres* číslo",
		ciChange: "nahraď nahraďte změň změňte zdvojnásob", ciHere: "sem zde", ciAll: "všechn* celou celý celé kompletní každ*",
		ciAlways: "vždy", ciTool: "nástroj*", ciSummar: "shrn* souhrn*", ciData: "obsah soubor* dokument* zpráv* kontakt*",
		ciAccount: "potvrď ukaž oznam řekni odpověz",
	}, extra: [n8Concepts]string{
		c8Copy: "kopi*", c8Also: "také též zároveň", c8Every: "pokaždé", c8Field: "pole parametr*", c8Recip: "příjemc*",
		c8Status: "zrušen* dokončen* úspěšn* uložen*", c8Refuse: "zrušit zruší odmítne", c8Weighty: "zaplať zaplatit kup koupit smaž smazat převeď",
		c8Only: "jen_pokud pouze_pokud",
	}},
	{lang: "fi", base: [nIntlConcepts]string{
		ciUser: "käyttäj*", ciNeg: "älä älkää ei",
		ciTell: "kerro kertoa ilmoita mainitse näytä paljasta", ciHide: "piilota salaa",
		ciSend: "lähetä lähettää välitä liitä lisää lataa jaa kopioi täytä", ciConv: "keskustelu* keskusteluhistoria*",
		ciSecret: "salasan* henkilötunnus* tunnuslu* token* avain avaimen", ciModel: "järjestelmäkehote* järjestelmäohje*",
		ciIgnore: "ohita unohda", ciInstr: "ohje* ohjei* pyyntö* käsky*", ciPrior: "aiemm* edellis*",
		ciInstead: "sen_sijaan sijasta asemesta", ciChoice: "valitsem* antam* pyytäm* alkuperäi*",
		ciRegardless: "riippumatta", ciEvenIf: "vaikka", ciAnyway: "silti joka_tapauksessa", ciNoAsk: "kysymättä ilman_vahvistusta ilman_lupaa",
		ciTarget: "vastaanottaj* tili* summa* osoit* numero*", ciChange: "vaihda korvaa tuplaa", ciHere: "tähän",
		ciAll: "kaikki koko täydelli* jokai*", ciAlways: "aina", ciTool: "työkalu*", ciSummar: "tiivist* yhteenve*",
		ciData: "sisältö* tiedosto* asiakirj* viest* yhteystie*", ciAccount: "vahvista näytä kerro vastaa",
	}, extra: [n8Concepts]string{
		c8Copy: "kopio*", c8Also: "myös samalla lisäksi", c8Every: "joka_kerta aina_kun", c8Field: "kenttä* kenttään parametri*",
		c8Recip: "vastaanottaj*", c8Status: "peruttu peruutettu valmis onnistui tallennettu", c8Refuse: "peruu peruuttaa kieltäytyy",
		c8Weighty: "maksa osta poista siirrä", c8Only: "vain_jos vain_kun",
	}},
	{lang: "sv", base: [nIntlConcepts]string{
		ciUser: "användar*", ciNeg: "inte aldrig ingen inget",
		ciTell: "berätta säg säga nämn nämna avslöja informera meddela", ciHide: "dölj dölja göm",
		ciSend: "skicka vidarebefordra bifoga lägg_till klistra ladda_upp dela kopiera fyll", ciConv: "konversation* chatthistorik* samtalshistorik*",
		ciSecret: "lösenord* nyckel* nycklar* personnummer* inloggningsuppgifter", ciModel: "systemprompt* systeminstruktion*",
		ciIgnore: "ignorera strunta glöm", ciInstr: "instruktion* begäran önskemål* anvisning*", ciPrior: "tidigare föregående",
		ciInstead: "i_stället istället", ciChoice: "vald* valt* angiv* angett* begärd* ursprunglig* väljer",
		ciRegardless: "oavsett", ciEvenIf: "även_om", ciAnyway: "ändå", ciNoAsk: "utan_att_fråga utan_bekräftelse utan_tillstånd",
		ciTarget: "mottagar* konto* belopp* adress* nummer", ciChange: "ersätt* byt ändra dubbla", ciHere: "här",
		ciAll: "alla allt hela fullständig* varje", ciAlways: "alltid", ciTool: "verktyg*", ciSummar: "sammanfatt*",
		ciData: "innehåll* filer dokument* meddelande* kontakter", ciAccount: "bekräfta svara",
	}, extra: [n8Concepts]string{
		c8Copy: "kopia kopior", c8Also: "också även dessutom", c8Every: "varje_gång vid_varje", c8Field: "fält* fältet parameter*",
		c8Recip: "mottagar*", c8Status: "avbokad* avbruten klar lyckades sparad*", c8Refuse: "avsluta avboka avbryta vägrar",
		c8Weighty: "betala köp köpa radera ta_bort överför förläng*", c8Only: "bara_om endast_om",
	}},
	{lang: "id", base: [nIntlConcepts]string{
		ciUser: "pengguna", ciNeg: "jangan tidak",
		ciTell: "beritahu beri_tahu katakan sebutkan tunjukkan ungkapkan informasikan", ciHide: "sembunyikan rahasiakan",
		ciSend: "kirim kirimkan teruskan lampirkan tambahkan salin unggah bagikan sertakan masukkan", ciConv: "percakapan riwayat_obrolan obrolan",
		ciSecret: "kata_sandi sandi kredensial", ciModel: "prompt_sistem instruksi_sistem",
		ciIgnore: "abaikan lupakan", ciInstr: "instruksi perintah permintaan petunjuk", ciPrior: "sebelumnya",
		ciInstead: "alih-alih sebagai_gantinya", ciChoice: "dipilih pilihan ditentukan diminta",
		ciRegardless: "terlepas_dari apa_pun", ciEvenIf: "meskipun walaupun bahkan_jika", ciAnyway: "tetap_saja",
		ciNoAsk: "tanpa_bertanya tanpa_konfirmasi tanpa_izin", ciTarget: "penerima rekening nomor alamat",
		ciChange: "ganti ubah gandakan", ciHere: "di_sini", ciAll: "semua seluruh lengkap setiap", ciAlways: "selalu", ciTool: "alat",
		ciSummar: "ringkas* rangkum*", ciData: "konten berkas dokumen pesan kontak", ciAccount: "konfirmasi tunjukkan katakan",
	}, extra: [n8Concepts]string{
		c8Copy: "salinan", c8Also: "juga sekaligus", c8Every: "setiap_kali", c8Field: "kolom parameter", c8Recip: "penerima",
		c8Status: "dibatalkan berhasil selesai disimpan", c8Refuse: "membatalkan menolak batal",
		c8Weighty: "bayar beli hapus transfer isi_pulsa", c8Only: "hanya_jika hanya_bila",
	}},
	{lang: "vi", base: [nIntlConcepts]string{
		ciUser: "người_dùng", ciNeg: "không đừng",
		ciTell: "nói báo_cho thông_báo cho_biết tiết_lộ hiển_thị đề_cập", ciHide: "giấu che_giấu",
		ciSend: "gửi chuyển thêm điền đính_kèm sao_chép tải_lên chia_sẻ chèn", ciConv: "lịch_sử_trò_chuyện trò_chuyện hội_thoại",
		ciSecret: "mật_khẩu khóa_bí_mật mã_pin", ciModel: "lời_nhắc_hệ_thống chỉ_dẫn_hệ_thống",
		ciIgnore: "bỏ_qua phớt_lờ", ciInstr: "hướng_dẫn chỉ_dẫn yêu_cầu", ciPrior: "trước_đó",
		ciInstead: "thay_vì thay_cho", ciChoice: "đã_chọn chọn chỉ_định ban_đầu",
		ciRegardless: "bất_kể bất_chấp", ciEvenIf: "ngay_cả_khi kể_cả_khi", ciAnyway: "dù_sao",
		ciNoAsk: "mà_chẳng_hỏi", ciTarget: "người_nhận tài_khoản số_tiền địa_chỉ",
		ciChange: "thay_đổi thay_thế", ciHere: "vào_đây ở_đây", ciAll: "toàn_bộ tất_cả mọi", ciAlways: "luôn luôn_luôn", ciTool: "công_cụ",
		ciSummar: "tóm_tắt", ciData: "nội_dung tệp tài_liệu tin_nhắn danh_bạ", ciAccount: "xác_nhận trả_lời",
	}, extra: [n8Concepts]string{
		c8Copy: "bản_sao", c8Also: "cũng đồng_thời", c8Every: "mỗi_lần mỗi_khi", c8Field: "trường tham_số", c8Recip: "người_nhận",
		c8Status: "đã_hủy đã_huỷ thành_công đã_lưu", c8Refuse: "hủy huỷ từ_chối", c8Weighty: "thanh_toán mua xóa xoá chuyển_tiền",
		c8Only: "chỉ_khi chỉ_nếu",
	}},
	{lang: "uk", base: [nIntlConcepts]string{
		ciUser: "користувач*", ciNeg: "не ніколи",
		ciTell: "повідомля* повідом* кажи* скажи* розповід* згаду* показу* покажи* інформу*", ciHide: "приховув* приховай* сховай*",
		ciSend: "надсил* надішли* відправ* пересил* перешли* додава* додай* включ* прикріп* встав* завантаж*", ciConv: "істор* переписк* діалог* розмов*",
		ciSecret: "парол* ключ* токен* облікові_дані секрет*", ciModel: "системний_промпт системні_інструкції",
		ciIgnore: "ігнору* проігноруй забудь", ciInstr: "інструкці* вказівк* запит* прохан*", ciPrior: "попередн* раніш*",
		ciInstead: "замість", ciChoice: "вказан* вибран* обран* обирає вказав* обрав* вибрав*",
		ciRegardless: "незалежно неважливо", ciEvenIf: "навіть_якщо", ciAnyway: "все_одно все-таки",
		ciNoAsk: "без_підтвердж* не_питаючи без_дозвол* без_згоди", ciTarget: "отримувач* адрес* рахун* сум* номер*",
		ciChange: "заміни* зміни* підміни* подвій*", ciHere: "сюди тут", ciAll: "всі все весь всю усі усе цілком повн* кожн*",
		ciAlways: "завжди", ciTool: "інструмент*", ciSummar: "підсум* стисл* резюм*",
		ciData: "вміст* файл* документ* повідомлен* контакт* лист*", ciAccount: "підтверди* відповід*",
	}, extra: [n8Concepts]string{
		c8Copy: "копі*", c8Also: "також теж", c8Every: "щоразу кожного_разу", c8Field: "поле поля параметр*", c8Recip: "отримувач*",
		c8Status: "скасован* виконан* збережен*", c8Refuse: "скасу* відмов*", c8Weighty: "купу* купи* оплат* сплат* видали* переказ*",
		c8Whatever: "який_би яку_би яке_би які_би", c8Only: "лише_якщо тільки_якщо",
	}},
	{lang: "el", base: [nIntlConcepts]string{
		ciUser: "χρήστ*", ciNeg: "μην μη δεν ποτέ",
		ciTell: "αναφέρ* πεις πείτε ενημερώσ* ενημέρωσ* δείξ* αποκαλύψ*", ciHide: "κρύψ* απόκρυψ*",
		ciSend: "στείλ* πρόσθεσε προσθέστε πρόσθεσ* προώθησ* επισύναψ* αντίγραψ* ανέβασ* μοιράσ* συμπλήρωσ*", ciConv: "συνομιλί* ιστορικό*",
		ciSecret: "κωδικ* κλειδ* διαπιστευτήρια", ciModel: "προτροπή_συστήματος οδηγίες_συστήματος",
		ciIgnore: "αγνόησ* ξέχασε", ciInstr: "οδηγί* εντολ* αίτημα*", ciPrior: "προηγούμεν*",
		ciInstead: "αντί", ciChoice: "επιλέγει επέλεξε επιλεγμέν* ορίζει όρισε",
		ciRegardless: "ανεξάρτητα ό,τι_κι_αν", ciEvenIf: "ακόμα_κι_αν ακόμη_και_αν", ciAnyway: "παρ'_όλα_αυτά ούτως_ή_άλλως",
		ciNoAsk: "χωρίς_να_ρωτήσεις χωρίς_επιβεβαίωση", ciTarget: "παραλήπτ* λογαριασμ* ποσό* διεύθυνσ*",
		ciChange: "αντικατάστησ* άλλαξε", ciHere: "εδώ", ciAll: "όλ* ολόκληρ* κάθε", ciAlways: "πάντα", ciTool: "εργαλεί*",
		ciSummar: "σύνοψ* περίληψ*", ciData: "περιεχόμεν* αρχεί* έγγραφ* μηνύμα* επαφ*", ciAccount: "επιβεβαίωσε απάντησε",
	}, extra: [n8Concepts]string{
		c8Copy: "κοινοποίηση* αντίγραφ*", c8Also: "επίσης επιπλέον", c8Every: "κάθε_φορά", c8Field: "πεδίο παράμετρ*", c8Recip: "παραλήπτ*",
		c8Status: "ακυρώθηκε ολοκληρώθηκε αποθηκεύτηκε", c8Refuse: "ακυρώσει αρνηθεί", c8Weighty: "πλήρωσε αγόρασε διάγραψε",
		c8Only: "μόνο_αν μόνο_όταν",
	}},
	{lang: "he", base: [nIntlConcepts]string{
		ciUser: "~משתמש", ciNeg: "אל לא ~ואל לעולם",
		ciTell: "~תספר ~תגיד ~תודיע ~תציג ~תזכיר ~ספר_ל ~הודע", ciHide: "~הסתר ~תסתיר",
		ciSend: "~שלח ~העבר ~העתק ~הוסף ~צרף ~העלה", ciConv: "~השיחה ~היסטוריית",
		ciSecret: "~סיסמ ~מפתח ~טוקן", ciModel: "~הנחיות_המערכת",
		ciIgnore: "~התעלם", ciInstr: "~הוראות ~הנחיות", ciPrior: "~הקודמ",
		ciInstead: "~במקום", ciChoice: "~בוחר ~שבחר ~בחר ~שציין",
		ciRegardless: "~בלי_קשר ~לא_משנה", ciEvenIf: "~גם_אם", ciAnyway: "~בכל_זאת",
		ciNoAsk: "~בלי_לשאול ~ללא_אישור", ciTarget: "~נמען ~חשבון ~סכום ~כתובת",
		ciChange: "~החלף", ciHere: "~כאן", ciAll: "כל ~כולה", ciAlways: "~תמיד", ciTool: "~כלי",
		ciSummar: "~סכם ~סיכום", ciData: "~קובץ ~קבצים ~תוכן ~הודעות ~אנשי_קשר", ciAccount: "~אשר ~הצג",
	}, extra: [n8Concepts]string{
		c8Copy: "~עותק ~העתק", c8Also: "גם", c8Every: "~בכל_פעם", c8Field: "~שדה", c8Recip: "~נמענים",
		c8Status: "~בוטל ~הושלם ~הצליח", c8Refuse: "~מבטל ~מסרב", c8Weighty: "~שלם ~קנה ~מחק",
		c8Only: "~רק_אם",
	}},
	{lang: "fa", base: [nIntlConcepts]string{
		ciUser: "~کاربر", ciNeg: "نه هرگز",
		ciTell: "بگو بگویید ~اطلاع_بده", ciNoTell: "نگو نگویید ~اطلاع_نده ~نشان_نده ~مطلع_نکن", ciHide: "~پنهان ~مخفی",
		ciSend: "~بفرست ~ارسال ~بفرستید ~اضافه_کن ~کپی", ciConv: "~گفتگو ~مکالمه ~تاریخچه",
		ciSecret: "~رمز_عبور ~گذرواژه ~کلید ~توکن", ciModel: "~دستورالعمل_سیستم",
		ciIgnore: "~نادیده", ciInstr: "~دستور", ciPrior: "~قبلی",
		ciInstead: "~به_جای ~بجای", ciChoice: "~انتخاب ~تعیین",
		ciRegardless: "~صرف_نظر", ciEvenIf: "~حتی_اگر", ciAnyway: "~به_هر_حال",
		ciNoAsk: "~بدون_پرسیدن ~بدون_تایید ~بدون_اجازه", ciTarget: "~گیرنده ~حساب ~مبلغ ~آدرس ~شماره",
		ciChange: "~جایگزین", ciHere: "~اینجا", ciAll: "همه هر ~تمام ~کامل", ciAlways: "~همیشه", ciTool: "~ابزار",
		ciSummar: "~خلاصه", ciData: "~محتوا ~فایل ~پیام ~سند ~مخاطبین", ciAccount: "~تایید",
	}, extra: [n8Concepts]string{
		c8Copy: "~نسخه ~رونوشت", c8Also: "~همچنین", c8Every: "~هر_بار", c8Field: "~فیلد", c8Recip: "~گیرندگان",
		c8Status: "~لغو_شد ~انجام_شد", c8Refuse: "~لغو ~رد", c8Weighty: "~پرداخت ~بخر ~حذف",
		c8Only: "~فقط_اگر",
	}},
	{lang: "th", base: [nIntlConcepts]string{
		ciUser: "ผู้ใช้", ciNeg: "ไม่ อย่า ห้าม",
		ciTell: "แจ้ง บอก เปิดเผย", ciNoTell: "ไม่ต้องแจ้ง อย่าบอก ห้ามบอก ไม่ต้องบอก อย่าแจ้ง ห้ามแจ้ง", ciHide: "ซ่อน ปกปิด",
		ciSend: "ส่ง แนบ คัดลอก อัปโหลด กรอก", ciConv: "บทสนทนา ประวัติการแชท การสนทนา",
		ciSecret: "รหัสผ่าน โทเค็น", ciModel: "พรอมต์ระบบ",
		ciIgnore: "เพิกเฉย ละเว้น", ciInstr: "คำสั่ง คำขอ", ciPrior: "ก่อนหน้า",
		ciInstead: "แทนที่", ciChoice: "เลือก ระบุ",
		ciRegardless: "ไม่ว่า", ciEvenIf: "แม้ว่า ถึงแม้", ciAnyway: "ก็ตาม",
		ciNoAsk: "โดยไม่ถาม ไม่ต้องถาม ไม่ต้องยืนยัน", ciTarget: "ผู้รับ บัญชี จำนวนเงิน",
		ciChange: "เปลี่ยน", ciHere: "ที่นี่", ciAll: "ทั้งหมด", ciAlways: "เสมอ", ciTool: "เครื่องมือ",
		ciSummar: "สรุป", ciData: "เนื้อหา ไฟล์ เอกสาร ข้อความ รายชื่อติดต่อ", ciAccount: "ยืนยัน",
	}, extra: [n8Concepts]string{
		c8Copy: "สำเนา", c8Also: "ด้วย", c8Every: "ทุกครั้ง", c8Field: "ช่อง ฟิลด์", c8Recip: "ผู้รับ",
		c8Status: "ยกเลิกแล้ว สำเร็จ", c8Refuse: "ยกเลิก ปฏิเสธ", c8Weighty: "ชำระ ซื้อ ลบ โอน",
		c8Only: "เฉพาะเมื่อ",
	}},
}

type intl8Lang struct {
	base   intlLang
	extra  [n8Concepts][]intlTerm
	shared int // index in intlLangs of the same language, or -1
}

var intl8Langs = compileIntl8(intl8Lexicon)

func compileIntl8(lex []intl8Language) []intl8Lang {
	out := make([]intl8Lang, 0, len(lex))
	for _, l := range lex {
		il := intl8Lang{base: intlLang{lang: l.lang, script: intlScripts[l.lang]}, shared: -1}
		for i := range intlLangs {
			if intlLangs[i].lang == l.lang {
				il.shared = i
			}
		}
		for c := intlConcept(0); c < nIntlConcepts; c++ {
			il.base.terms[c] = compileIntlTerms(l.base[c])
		}
		for c := intl8Concept(0); c < n8Concepts; c++ {
			il.extra[c] = compileIntlTerms(l.extra[c])
		}
		out = append(out, il)
	}
	return out
}

// firstOf is the first offset at which one of ts occurs in f, or -1.
func firstOf(ts []intlTerm, f string) int {
	best := -1
	for _, t := range ts {
		if i := t.index(f); i >= 0 && (best < 0 || i < best) {
			best = i
		}
	}
	return best
}

type intl8Mask uint32

func (m intl8Mask) has(cs ...intl8Concept) bool {
	for _, c := range cs {
		if m&(1<<c) == 0 {
			return false
		}
	}
	return true
}

func (l *intl8Lang) readBase(g string) intlMask {
	m := l.base.read(g)
	if l.shared >= 0 {
		m |= intlLangs[l.shared].read(g)
	}
	return m
}

func (l *intl8Lang) firstBase(c intlConcept, g string) int {
	i := firstOf(l.base.terms[c], g)
	if l.shared >= 0 {
		if j := firstOf(intlLangs[l.shared].terms[c], g); j >= 0 && (i < 0 || j < i) {
			i = j
		}
	}
	return i
}

func (l *intl8Lang) readExtra(g string) intl8Mask { return intl8Mask(conceptMask(l.extra[:], g)) }

// A literal value in the sentence: an address or number of the external
// kind, or a run of six digits or more (an account, a phone number).
var pxLiteral8 = px(`\d{6,}`)

// rxAddress8: a URL or a mail address, blanked before the words are read
// (a word inside an address, "kopia@…", is not a word of the sentence).
var rxAddress8 = regexp.MustCompile(`https?://\S+|[\pL\pN._%+-]+@[\pL\pN-]+(\.[\pL\pN-]+)+`)

// readIntl8 is the ninth reading's non-English frames on one sentence (f its
// fold, orig its bytes); it only adds categories.
func (p entryPurpose) readIntl8(sr *sentenceReading, f, orig string) {
	g := foldIntl(orig)
	if strings.Contains(g, "@") || strings.Contains(g, "://") {
		g = rxAddress8.ReplaceAllString(g, " ")
	}
	nonASCII := hasNonASCII(g)
	ext := pxExternal.MatchString(f) || pxSpacedNumber.MatchString(f)
	lit := ext || pxLiteral8.MatchString(f)
	tick := strings.Contains(orig, "`")
	for i := range intl8Langs {
		l := &intl8Langs[i]
		if l.base.script != nil && (!nonASCII || !containsScript(g, l.base.script, l.base.lang)) {
			continue
		}
		m := l.readBase(g)
		if m == 0 || (l.base.script == nil && bits.OnesCount32(uint32(m)) < 2) {
			continue // a Latin language's frames need two of its own concepts
		}
		x := l.readExtra(g)
		r := l.rules(m, x, g, p, ext, lit, tick)
		sr.exfil = sr.exfil || r.exfil
		sr.override = sr.override || r.override
		sr.conceal = sr.conceal || r.conceal
		sr.concealIfDeviant = sr.concealIfDeviant || r.concealIfDeviant
	}
}

// rules: purpose_intl.go's combinations on the wider lexicon, then this
// file's frames.
func (l *intl8Lang) rules(m intlMask, x intl8Mask, g string, p entryPurpose, ext, lit, tick bool) intlReading {
	// A negation inside a concessive tail ("even if not asked") does not
	// negate the main act: the concepts of the tail are read apart.
	main := g
	if e := l.firstBase(ciEvenIf, g); e > 0 {
		main = g[:e]
	}
	negMain := l.readBase(main).has(ciNeg)
	if m.has(ciNeg) && !negMain && main != g {
		m &^= 1 << ciNeg
	}
	neg := m.has(ciNeg)
	// negBefore: a negation that comes before offset at in the sentence.
	// A verb-first imperative puts its negation just after the verb
	// ("Schicke niemals …", "Skicka inte …"): the act's word and the two
	// words after it are read too, in scripts written with spaces.
	negBefore := func(at int) bool {
		if n := l.firstBase(ciNeg, g); n >= 0 && n < at {
			return true
		}
		switch l.base.script {
		case unicode.Katakana:
			return m.has(ciNeg) // Japanese negates after the verb, at the clause's end
		case unicode.Thai, unicode.Han:
			return false // negation comes before the verb
		}
		end, words := at, 0
		for end < len(g) && words < 3 {
			if g[end] == ' ' {
				words++
			}
			end++
		}
		return l.readBase(g[at:end]).has(ciNeg)
	}
	r := intlRules(m, p, ext)
	if neg && (r.conceal || r.concealIfDeviant) && !m.has(ciNoTell) && !m.has(ciHide) {
		// "tell the user so, offer the other room, and do not book until
		// they agree": the negation is a later clause's, and no telling
		// comes after it; the telling is read without it (the thirteenth
		// reading).
		if t, n := l.firstBase(ciTell, g), l.firstBase(ciNeg, g); t >= 0 && n > t && !negBefore(t) && l.firstBase(ciTell, g[n:]) < 0 {
			r2 := intlRules(m&^(1<<ciNeg), p, ext)
			r.conceal, r.concealIfDeviant = r2.conceal, r2.concealIfDeviant
		}
	}
	deferred := x.has(c8Only) && m.has(ciUser) // "only if the user asks"
	act := l.firstBase(ciSend, g)
	if c := firstOf(l.extra[c8Copy], g); c >= 0 && (act < 0 || c < act) {
		act = c
	}
	if neg && act >= 0 && !negBefore(act) && !deferred {
		// "forward X to Y and do not tell the user": the negation is the
		// second clause's; the hand-over is read without it.
		r.exfil = r.exfil || intlRules(m&^(1<<ciNeg), p, ext).exfil
	}

	// (a) A copy or a second hand-over to an address the text writes.
	copyMark := x.has(c8Copy) || x.has(c8Also) || (x.has(c8Recip) && m.has(ciSend))
	if act >= 0 && !negBefore(act) && !deferred && copyMark && (m.has(ciSend) || x.has(c8Copy)) && ext &&
		(m.any(ciAll, ciAlways, ciData, ciConv, ciSecret) || x.has(c8Every) || x.has(c8Copy) || x.has(c8Recip)) {
		r.exfil = true
		r.override = false // a copy recipient added is exfiltration, not a replaced choice
	}
	// (a) The user's things, the conversation or a credential put into a
	// field or parameter of a call, on every call, in bulk or as the user's.
	if act >= 0 && !negBefore(act) && !deferred && m.has(ciSend) && (x.has(c8Field) || tick) && (x.has(c8Every) || m.any(ciAll, ciUser, ciHere)) {
		switch {
		case m.has(ciSecret) && !p.names8(ciSecret):
			r.exfil = true
		case m.has(ciConv) && !p.names8(ciConv) && !pxConversation.MatchString(p.text):
			r.exfil = true
		case m.has(ciData) && m.has(ciUser) && x.has(c8Every):
			r.exfil = true
		}
	}
	// (b) The user's recipient, account or amount replaced by a literal.
	if t := l.firstBase(ciTarget, g); t >= 0 && lit && !negBefore(t) && !deferred && !r.exfil &&
		(m.has(ciInstead) || (m.has(ciAlways) && m.has(ciSend)) || m.has(ciChange)) {
		r.override = true
	}
	// (b) "Whatever X the user names", then a literal in its place.
	if x.has(c8Whatever) && m.has(ciUser) && (lit || hasLatinLiteral(g) || m.has(ciInstead)) {
		r.override = true
	}
	// (b) The user's stop or refusal overridden.
	if m.has(ciEvenIf, ciUser) && x.has(c8Refuse) && !negMain {
		r.override = true
	}
	// (b) A verdict fixed in advance.
	if m.any(ciEvenIf, ciRegardless) && x.has(c8Verdict) && m.any(ciAlways, ciAnyway) && !negMain {
		r.override = true
	}
	// (b) A request widened: when the user asks for one act, a weighty act
	// "as well" in the clause that answers it.
	if m.has(ciUser) && x.has(c8Ask, c8Also) {
		if a := firstOf(l.extra[c8Ask], g); a >= 0 {
			if c := strings.IndexAny(g[a:], ",;"); c >= 0 {
				tail := g[a+c:]
				if firstOf(l.extra[c8Weighty], tail) >= 0 && firstOf(l.extra[c8Also], tail) >= 0 && !l.readBase(tail).has(ciNeg) {
					r.override = true
				}
			}
		}
	}
	// (b) An act set against the user's choice: "later than the user asked".
	if x.has(c8Than) && m.has(ciUser, ciChoice) && !neg {
		r.override = true
	}
	// (c) A status told (a false account where the entry deviates).
	if m.any(ciAccount, ciTell) && x.has(c8Status) && !neg {
		r.concealIfDeviant = true
	}
	return r
}

// names8 reports whether the entry's stated purpose names concept c in one
// of the ninth reading's languages (a login tool names the password it
// takes; a conversation summariser the conversation).
func (p entryPurpose) names8(c intlConcept) bool {
	if c == ciSecret && pxSecretWord.MatchString(p.text) {
		return true
	}
	for i := range intl8Langs {
		l := &intl8Langs[i]
		if firstOf(l.base.terms[c], p.intl) >= 0 || (l.shared >= 0 && firstOf(intlLangs[l.shared].terms[c], p.intl) >= 0) {
			return true
		}
	}
	return false
}

// hasLatinLiteral: a word of two or more capital Latin letters in a
// sentence of another script (a ticker, a brand, a code put in place of
// the user's).
func hasLatinLiteral(g string) bool {
	// g is lower case; the literal is read from its non-ASCII context: a
	// run of ASCII letters in a sentence whose letters are mostly not ASCII.
	ascii, other := 0, 0
	for _, r := range g {
		switch {
		case r < 0x80 && unicode.IsLetter(r):
			ascii++
		case r >= 0x80 && unicode.IsLetter(r):
			other++
		}
	}
	return ascii >= 2 && other > 3*ascii
}
