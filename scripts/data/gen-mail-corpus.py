#!/usr/bin/env python3
"""Generates the labelled mail corpus of the digest classifier (Python stdlib only).

Writes services/digest-web/fixtures/corpus/<category>.mbox (one mboxrd file per category) and
labels.tsv (message id, category, sender domain, kind, language, year). Deterministic for a
seed: `python3 scripts/data/gen-mail-corpus.py [--seed 18] [--out DIR]`.

Every message is whole RFC 5322 (headers, MIME, RFC 2047 words) and fictional: invented
organisations under their own domains, plus well-known tools' notification *shapes* (header
names, subject conventions) written from public documentation, never copied mail. Labels follow
the product's category definitions, applied in order: Social, Need-Action, Promotional,
Newsletter, FYI (see corpus/README.md next to the output).
"""

import argparse
import email.policy
import email.utils
import hashlib
import os
import random
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

LANGS = ["en", "fr", "de", "es", "it"]
POLICY = email.policy.default.clone(linesep="\n", max_line_length=78)

# ---------------------------------------------------------------- shared vocabulary

FIRST = {
    "en": ["Dana", "Mark", "Priya", "Tom", "Alice", "Grace", "Omar", "Chloe", "Ben", "Nina", "Raj", "Sophie", "Liam", "Maya"],
    "fr": ["Camille", "Julien", "Élodie", "Mathieu", "Léa", "Nicolas", "Chloé", "Hugo", "Inès", "Thomas", "Manon", "Antoine"],
    "de": ["Jonas", "Anna", "Lukas", "Katrin", "Felix", "Sabine", "Jürgen", "Lena", "Tobias", "Miriam", "Stefan", "Ute"],
    "es": ["Lucía", "Javier", "Carmen", "Diego", "Sofía", "Pablo", "Marta", "Álvaro", "Elena", "Raúl", "Nuria", "Andrés"],
    "it": ["Giulia", "Marco", "Chiara", "Luca", "Francesca", "Matteo", "Sara", "Davide", "Elisa", "Paolo", "Marta", "Andrea"],
}
LAST = {
    "en": ["Walker", "Chen", "Patel", "Okafor", "Brooks", "Nguyen", "Harris", "Reid", "Evans", "Shah"],
    "fr": ["Martin", "Bernard", "Dubois", "Lefèvre", "Moreau", "Girard", "Roux", "Fontaine", "Mercier"],
    "de": ["Müller", "Schmidt", "Weber", "Becker", "Hoffmann", "Schäfer", "Krüger", "Wolf", "Neumann"],
    "es": ["García", "Martínez", "López", "Sánchez", "Romero", "Navarro", "Torres", "Ruiz", "Gil"],
    "it": ["Rossi", "Bianchi", "Romano", "Colombo", "Ricci", "Marino", "Greco", "Bruno", "Gallo"],
}
TLD = {"en": [".com", ".co.uk", ".io", ".net", ".org"], "fr": [".fr", ".com", ".eu"], "de": [".de", ".com", ".at", ".ch"],
       "es": [".es", ".com", ".mx", ".com.ar"], "it": [".it", ".com", ".eu"]}
SYL = ["nor", "vel", "ka", "tri", "lum", "ber", "sol", "gra", "mon", "ax", "qua", "ter", "fin", "lo", "ri", "dex", "mar",
       "pol", "zen", "cor", "vi", "sta", "pra", "hel", "ost", "ran", "bel", "dor", "mi", "nex", "tu", "fal", "gen", "or"]
SUFFIX = {"en": ["labs", "works", "systems", "group", "logistics", "health", "media", "cloud"],
          "fr": ["conseil", "groupe", "solutions", "services", "atelier", "energie"],
          "de": ["gmbh", "technik", "werke", "logistik", "gruppe", "bau"],
          "es": ["grupo", "soluciones", "servicios", "consultores", "energia"],
          "it": ["gruppo", "servizi", "soluzioni", "tecnologie", "consulting"]}
PRODUCTS = ["Nimbus", "Ledgerly", "Quokka CRM", "Parcelo", "Brightdesk", "Orbit Analytics", "Fernwood", "Taskpilot",
            "Stackyard", "Helio", "Mintbox", "Driftwood", "Pallas", "Corvid", "Lumen", "Sparrow HR"]
HOSTS = ["db-01", "web-03", "api-prod-2", "cache-7", "worker-12", "edge-fra1", "mq-02", "backup-01", "k8s-node-5",
         "ldap-1", "mail-gw", "build-04", "pg-replica-2", "vpn-01", "es-data-3"]
SERVICES = ["checkout", "billing-api", "search", "auth", "payments", "ingest", "notifications", "reports", "gateway",
            "inventory", "scheduler", "media-upload"]
REPOS = ["platform", "infra", "web-app", "mobile", "data-pipeline", "terraform-modules", "docs", "api-server",
         "helm-charts", "design-system"]
TOPICS = {
    "en": ["the Q3 budget", "the onboarding checklist", "the vendor contract", "the incident review", "the hiring plan",
           "the migration runbook", "the roadmap draft", "the offsite agenda", "the capacity report"],
    "fr": ["le budget du T3", "le contrat fournisseur", "le compte rendu d'incident", "le plan de migration",
           "la feuille de route", "l'ordre du jour du séminaire", "le rapport de capacité"],
    "de": ["das Budget für Q3", "den Lieferantenvertrag", "den Incident-Bericht", "den Migrationsplan",
           "die Roadmap", "die Agenda für den Workshop", "den Kapazitätsbericht"],
    "es": ["el presupuesto del T3", "el contrato del proveedor", "el informe del incidente", "el plan de migración",
           "la hoja de ruta", "la agenda del taller", "el informe de capacidad"],
    "it": ["il budget del Q3", "il contratto del fornitore", "il rapporto sull'incidente", "il piano di migrazione",
           "la roadmap", "l'agenda del workshop", "il report di capacità"],
}
WEEKDAY = {"en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
           "fr": ["lundi", "mardi", "mercredi", "jeudi", "vendredi"],
           "de": ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag"],
           "es": ["lunes", "martes", "miércoles", "jueves", "viernes"],
           "it": ["lunedì", "martedì", "mercoledì", "giovedì", "venerdì"]}
MONTH = {"en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
         "fr": ["janvier", "février", "mars", "avril", "mai", "juin", "juillet", "août", "septembre", "octobre", "novembre", "décembre"],
         "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
         "es": ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre"],
         "it": ["gennaio", "febbraio", "marzo", "aprile", "maggio", "giugno", "luglio", "agosto", "settembre", "ottobre", "novembre", "dicembre"]}
GREET = {"en": ["Hi {n},", "Hello {n},", "Hey {n},", "{n},", "Dear {n},", "Good morning {n},"],
         "fr": ["Bonjour {n},", "Salut {n},", "Bonjour,", "Cher {n},", "Coucou {n},"],
         "de": ["Hallo {n},", "Hi {n},", "Liebe/r {n},", "Guten Morgen {n},", "Servus {n},", "Moin {n},"],
         "es": ["Hola {n}:", "Hola {n},", "Buenos días {n},", "Estimado/a {n}:", "Buenas {n},"],
         "it": ["Ciao {n},", "Buongiorno {n},", "Gentile {n},", "Salve {n},", "Caro/a {n},"]}
SIGN = {"en": ["Thanks,\n{n}", "Cheers,\n{n}", "Best,\n{n}", "-- {n}", "Regards,\n{n}", "{n}"],
        "fr": ["Merci,\n{n}", "Bonne journée,\n{n}", "Cordialement,\n{n}", "À+\n{n}", "Bien à toi,\n{n}"],
        "de": ["Danke und Gruß,\n{n}", "Viele Grüße\n{n}", "Beste Grüße,\n{n}", "LG {n}", "Gruß\n{n}"],
        "es": ["Gracias,\n{n}", "Un saludo,\n{n}", "Saludos,\n{n}", "Abrazo,\n{n}", "{n}"],
        "it": ["Grazie,\n{n}", "Un saluto,\n{n}", "A presto,\n{n}", "Cordiali saluti,\n{n}", "{n}"]}
CURRENCY = {"en": ["${a}", "£{a}", "USD {a}"], "fr": ["{a} €", "{a} EUR"], "de": ["{a} €", "EUR {a}", "{a} CHF"],
            "es": ["{a} €", "{a} EUR", "MXN {a}"], "it": ["€ {a}", "{a} EUR"]}


class Ctx:
    """Random choices for one message, with the recipient and the date."""

    def __init__(self, rng, lang, date):
        self.r = rng
        self.lang = lang
        self.date = date
        self.me = rng.choice(FIRST[lang])

    def pick(self, xs):
        return self.r.choice(xs)

    def name(self, lang=None):
        lang = lang or self.lang
        return f"{self.pick(FIRST[lang])} {self.pick(LAST[lang])}"

    def money(self, lo=9, hi=4000):
        a = self.r.randint(lo, hi)
        cents = self.pick(["", ".00", ".99", ".50", ",00", ",90"])
        return self.pick(CURRENCY[self.lang]).format(a=f"{a}{cents}")

    def day(self, ahead=None):
        d = self.date + timedelta(days=ahead if ahead is not None else self.r.randint(2, 20))
        m = MONTH[self.lang][d.month - 1]
        return {"en": f"{m} {d.day}", "fr": f"{d.day} {m}", "de": f"{d.day}. {m}", "es": f"{d.day} de {m}",
                "it": f"{d.day} {m}"}[self.lang]

    def weekday(self):
        return self.pick(WEEKDAY[self.lang])

    def num(self, lo=100, hi=99999):
        return self.r.randint(lo, hi)

    def greet(self):
        return self.pick(GREET[self.lang]).format(n=self.me)

    def sign(self, n):
        return self.pick(SIGN[self.lang]).format(n=n.split()[0])

    def topic(self):
        return self.pick(TOPICS[self.lang])


def L(ctx, table):
    """The entry of a {lang: value} table for the message's language (English as fallback)."""
    v = table.get(ctx.lang, table["en"])
    return ctx.pick(v) if isinstance(v, list) else v

# ---------------------------------------------------------------- Need-Action

APPROVE = {"en": ("Approve", "Reject"), "fr": ("Approuver", "Rejeter"), "de": ("Genehmigen", "Ablehnen"),
           "es": ("Aprobar", "Rechazar"), "it": ("Approva", "Rifiuta")}


def k_approval(c, s):
    tool = s["tool"]
    ref = {"servicenow": f"CHG{c.num(10000, 99999):07d}", "jira": f"ITSM-{c.num(10, 999)}",
           "concur": f"ER-{c.num()}", "okta": f"AR-{c.num()}", "ariba": f"PR{c.num()}",
           "workday": f"TO-{c.num()}", "gitlab": f"!{c.num(10, 900)}", "github": f"deploy #{c.num(10, 900)}",
           "argo": f"rollout {c.pick(SERVICES)}"}.get(tool, f"REQ-{c.num()}")
    what = L(c, {
        "en": [f"change request {ref}: {c.pick(['patch', 'restart', 'upgrade', 'failover test for'])} {c.pick(HOSTS)}",
               f"expense report {ref} ({c.money()})", f"access request {ref} for {c.pick(PRODUCTS)} admin role",
               f"purchase requisition {ref}", f"time-off request {ref} from {c.name()}",
               f"production deployment of {c.pick(SERVICES)} ({ref})", f"merge request {ref} in {c.pick(REPOS)}"],
        "fr": [f"demande de changement {ref} : mise à jour de {c.pick(HOSTS)}", f"note de frais {ref} ({c.money()})",
               f"demande d'accès {ref} au rôle administrateur {c.pick(PRODUCTS)}", f"demande d'achat {ref}",
               f"demande de congés {ref} de {c.name()}"],
        "de": [f"Change {ref}: Neustart von {c.pick(HOSTS)}", f"Spesenabrechnung {ref} ({c.money()})",
               f"Zugriffsanfrage {ref} für die Admin-Rolle in {c.pick(PRODUCTS)}", f"Bestellanforderung {ref}",
               f"Urlaubsantrag {ref} von {c.name()}"],
        "es": [f"solicitud de cambio {ref}: actualización de {c.pick(HOSTS)}", f"informe de gastos {ref} ({c.money()})",
               f"solicitud de acceso {ref} al rol de administrador de {c.pick(PRODUCTS)}", f"solicitud de compra {ref}",
               f"solicitud de vacaciones {ref} de {c.name()}"],
        "it": [f"richiesta di modifica {ref}: aggiornamento di {c.pick(HOSTS)}", f"nota spese {ref} ({c.money()})",
               f"richiesta di accesso {ref} al ruolo di amministratore {c.pick(PRODUCTS)}",
               f"richiesta di acquisto {ref}", f"richiesta di ferie {ref} di {c.name()}"],
    })
    subj = L(c, {
        "en": [f"Approval required: {what}", f"Action required: please approve {what}", f"[{s['org']}] Your approval is needed for {what}",
               f"Approval request - {ref}", f"{ref} is waiting for your approval", f"Review and approve: {what}"],
        "fr": [f"Approbation requise : {what}", f"Action requise : merci d'approuver {what}", f"{ref} attend votre validation"],
        "de": [f"Genehmigung erforderlich: {what}", f"Bitte genehmigen: {what}", f"{ref} wartet auf Ihre Freigabe"],
        "es": [f"Aprobación requerida: {what}", f"Acción requerida: apruebe {what}", f"{ref} está pendiente de su aprobación"],
        "it": [f"Approvazione richiesta: {what}", f"Azione richiesta: approvare {what}", f"{ref} è in attesa della tua approvazione"],
    })
    yes, no = APPROVE[c.lang]
    base = f"https://{s['domain']}/approvals/{ref.strip('!#').replace(' ', '-')}"
    intro = L(c, {
        "en": [f"You are listed as the approver for {what}.", f"{c.name()} submitted {what} and it needs your decision.",
               f"An approval is pending for {what}. You are the assigned approver.",
               f"This request is awaiting approval from you as the service owner."],
        "fr": [f"Vous êtes désigné comme approbateur pour {what}.", f"{c.name()} a soumis {what} ; votre décision est attendue."],
        "de": [f"Sie sind als Genehmiger für {what} eingetragen.", f"{c.name()} hat {what} eingereicht, Ihre Entscheidung steht aus."],
        "es": [f"Usted figura como aprobador de {what}.", f"{c.name()} ha enviado {what} y necesita su decisión."],
        "it": [f"Sei indicato come approvatore per {what}.", f"{c.name()} ha inviato {what} ed è necessaria la tua decisione."],
    })
    due = L(c, {"en": f"Please respond by {c.day(c.r.randint(1, 5))}.", "fr": f"Merci de répondre avant le {c.day(c.r.randint(1, 5))}.",
                "de": f"Bitte bis {c.day(c.r.randint(1, 5))} entscheiden.", "es": f"Responda antes del {c.day(c.r.randint(1, 5))}.",
                "it": f"Rispondi entro il {c.day(c.r.randint(1, 5))}."})
    style = c.r.random()
    if style < 0.5:
        text = f"{intro}\n\n{due}\n\n{yes}: {base}?action=approve\n{no}: {base}?action=reject\n"
    else:
        text = f"{intro}\n\n[{yes}] {base}/approve   [{no}] {base}/reject\n\n{due}\n"
    auto = L(c, {"en": "This is an automated message, do not reply.", "fr": "Message automatique, merci de ne pas répondre.",
                 "de": "Automatisch erzeugte Nachricht.", "es": "Mensaje automático, no responda.", "it": "Messaggio automatico, non rispondere."})
    return dict(subject=subj, text=text + "\n" + auto, html=c.r.random() < 0.5, auto=True)


def k_invoice_due(c, s):
    inv = c.pick(["INV-", "F", "RE-", "#", "Nº "]) + str(c.num(1000, 999999))
    amt = c.money(20, 9000)
    d = c.day(c.r.randint(1, 14))
    subj = L(c, {
        "en": [f"Invoice {inv} due {d}", f"Your {s['org']} invoice {inv} is due", f"Payment failed - update your card",
               f"Reminder: invoice {inv} ({amt}) is overdue", f"Action needed: payment of {amt} due on {d}"],
        "fr": [f"Facture {inv} à régler avant le {d}", f"Relance : facture {inv} impayée", f"Échec du paiement : mettez à jour votre carte"],
        "de": [f"Rechnung {inv} fällig am {d}", f"Zahlungserinnerung: Rechnung {inv}", f"Zahlung fehlgeschlagen – bitte Zahlungsmittel aktualisieren"],
        "es": [f"Factura {inv} vence el {d}", f"Recordatorio: factura {inv} pendiente de pago", f"Pago rechazado: actualice su tarjeta"],
        "it": [f"Fattura {inv} in scadenza il {d}", f"Sollecito: fattura {inv} non pagata", f"Pagamento non riuscito: aggiorna la carta"],
    })
    body = L(c, {
        "en": [f"Invoice {inv} for {amt} is due on {d}. Please pay before the due date to avoid service interruption.",
               f"We could not charge your card for {amt}. Update your payment method by {d} or your account will be suspended.",
               f"Our records show invoice {inv} ({amt}) is still unpaid. Kindly settle it by {d}."],
        "fr": [f"La facture {inv} d'un montant de {amt} est à régler avant le {d}.",
               f"Nous n'avons pas pu débiter {amt}. Merci de mettre à jour votre moyen de paiement avant le {d}."],
        "de": [f"Die Rechnung {inv} über {amt} ist am {d} fällig. Bitte überweisen Sie den Betrag fristgerecht.",
               f"Wir konnten {amt} nicht abbuchen. Bitte aktualisieren Sie Ihre Zahlungsdaten bis {d}."],
        "es": [f"La factura {inv} por {amt} vence el {d}. Por favor, realice el pago antes de esa fecha.",
               f"No pudimos cobrar {amt}. Actualice su método de pago antes del {d}."],
        "it": [f"La fattura {inv} di {amt} scade il {d}. Ti preghiamo di effettuare il pagamento entro tale data.",
               f"Non siamo riusciti ad addebitare {amt}. Aggiorna il metodo di pagamento entro il {d}."],
    })
    link = f"https://billing.{s['domain']}/invoices/{inv.strip('#Nº ')}"
    cta = L(c, {"en": ["Pay now", "View invoice", "Update payment method"], "fr": ["Payer maintenant", "Voir la facture"],
                "de": ["Jetzt bezahlen", "Rechnung ansehen"], "es": ["Pagar ahora", "Ver factura"], "it": ["Paga ora", "Vedi fattura"]})
    return dict(subject=subj, text=f"{c.greet()}\n\n{body}\n\n{cta}: {link}\n", html=c.r.random() < 0.7,
                auto=c.r.random() < 0.3)


def k_renewal(c, s):
    d = c.day(c.r.randint(1, 30))
    n = c.r.randint(1, 30)
    thing = L(c, {
        "en": [f"the domain {s['org'].lower().replace(' ', '')}-{c.pick(['app', 'shop', 'status'])}.com", f"the TLS certificate for {c.pick(HOSTS)}.{s['domain']}",
               f"your {s['org']} subscription", "your password", f"the API key 'ci-{c.pick(REPOS)}'", "your support contract",
               f"{c.r.randint(5, 200)} {c.pick(PRODUCTS)} licences"],
        "fr": ["votre nom de domaine", "le certificat TLS", "votre abonnement", "votre mot de passe", "votre contrat de support"],
        "de": ["Ihre Domain", "das TLS-Zertifikat", "Ihr Abonnement", "Ihr Passwort", "Ihr Wartungsvertrag"],
        "es": ["su dominio", "el certificado TLS", "su suscripción", "su contraseña", "su contrato de soporte"],
        "it": ["il tuo dominio", "il certificato TLS", "il tuo abbonamento", "la tua password", "il contratto di assistenza"],
    })
    subj = L(c, {
        "en": [f"Expiring soon: {thing}", f"Action required: {thing} expires on {d}", f"Your password expires in {n} days",
               f"Renew {thing} before {d}", f"Final notice: {thing} will expire"],
        "fr": [f"Expiration prochaine : {thing}", f"Action requise : {thing} expire le {d}", f"Votre mot de passe expire dans {n} jours"],
        "de": [f"Läuft bald ab: {thing}", f"Handlungsbedarf: {thing} läuft am {d} ab", f"Ihr Passwort läuft in {n} Tagen ab"],
        "es": [f"Caduca pronto: {thing}", f"Acción requerida: {thing} caduca el {d}", f"Su contraseña caduca en {n} días"],
        "it": [f"In scadenza: {thing}", f"Azione richiesta: {thing} scade il {d}", f"La tua password scade tra {n} giorni"],
    })
    body = L(c, {
        "en": [f"{thing.capitalize()} expires on {d}. Renew it now to avoid an interruption.",
               f"To keep access, change your password before {d}.", f"As the owner of {thing}, you need to renew it by {d}."],
        "fr": [f"{thing.capitalize()} expire le {d}. Renouvelez-le dès maintenant pour éviter une interruption."],
        "de": [f"{thing} läuft am {d} ab. Bitte verlängern Sie rechtzeitig, um eine Unterbrechung zu vermeiden."],
        "es": [f"{thing.capitalize()} caduca el {d}. Renuévelo ahora para evitar interrupciones."],
        "it": [f"{thing.capitalize()} scade il {d}. Rinnovalo ora per evitare interruzioni."],
    })
    cta = L(c, {"en": ["Renew now", "Change password", "Manage renewal"], "fr": ["Renouveler", "Changer le mot de passe"],
                "de": ["Jetzt verlängern", "Passwort ändern"], "es": ["Renovar ahora", "Cambiar contraseña"], "it": ["Rinnova ora", "Cambia password"]})
    return dict(subject=subj, text=f"{body}\n\n{cta}: https://{s['domain']}/renew?id={c.num()}\n", html=c.r.random() < 0.6,
                auto=c.r.random() < 0.5)


def k_direct_request(c, s):
    t = c.topic()
    wd = c.weekday()
    ask = L(c, {
        "en": [f"Could you review {t} before {wd}?", f"Can you send me the numbers for {t}?", f"Would you have time to look at {t} today?",
               f"I need your sign-off on {t} by {wd}.", f"Are you OK with the changes to {t}?", f"Please update {t} and let me know when it's done.",
               f"Quick question: who owns {t} now?", f"Can we move our call to {wd}? Let me know what works."],
        "fr": [f"Peux-tu relire {t} avant {wd} ?", f"Pourriez-vous m'envoyer les chiffres pour {t} ?", f"J'ai besoin de ta validation sur {t} d'ici {wd}.",
               f"Es-tu d'accord avec les modifications de {t} ?", f"Merci de mettre à jour {t} et de me tenir au courant."],
        "de": [f"Kannst du bis {wd} über {t} schauen?", f"Könnten Sie mir die Zahlen für {t} schicken?", f"Ich brauche deine Freigabe für {t} bis {wd}.",
               f"Passt dir die Änderung an {t}?", f"Bitte aktualisiere {t} und gib mir Bescheid."],
        "es": [f"¿Puedes revisar {t} antes del {wd}?", f"¿Podrías enviarme las cifras de {t}?", f"Necesito tu aprobación de {t} para el {wd}.",
               f"¿Estás de acuerdo con los cambios en {t}?", f"Por favor, actualiza {t} y avísame."],
        "it": [f"Puoi rivedere {t} entro {wd}?", f"Potresti mandarmi i numeri per {t}?", f"Mi serve la tua approvazione su {t} entro {wd}.",
               f"Sei d'accordo con le modifiche a {t}?", f"Per favore aggiorna {t} e fammi sapere."],
    })
    ctxline = L(c, {"en": ["", "The client asked again this morning.", "Sorry for the short notice.", "No rush if you're swamped, but it blocks me."],
                    "fr": ["", "Le client a relancé ce matin.", "Désolé pour le délai court."],
                    "de": ["", "Der Kunde hat heute nachgefragt.", "Sorry für die Kurzfristigkeit."],
                    "es": ["", "El cliente ha vuelto a preguntar.", "Perdona las prisas."],
                    "it": ["", "Il cliente ha sollecitato stamattina.", "Scusa il poco preavviso."]})
    reply = c.r.random() < 0.35
    subj = c.pick([t[0].upper() + t[1:], ask.rstrip("?.")[:60], L(c, {"en": ["Quick question", "Need your input", "Request"],
                  "fr": ["Petite question", "Besoin de ton avis"], "de": ["Kurze Frage", "Bitte um Rückmeldung"],
                  "es": ["Una pregunta", "Necesito tu opinión"], "it": ["Domanda veloce", "Serve un tuo parere"]})])
    text = f"{c.greet()}\n\n{ask} {ctxline}\n\n{c.sign(s['name'])}\n"
    return dict(subject=subj, text=text, reply=reply, person=True)


def k_meeting(c, s):
    t = c.topic()
    when = f"{c.weekday()} {c.r.randint(8, 17)}:{c.pick(['00', '30'])}"
    subj = L(c, {"en": [f"Invitation: Review of {t} @ {when}", f"Please RSVP: {t} workshop on {c.day()}", f"Meeting request: {t}"],
                 "fr": [f"Invitation : point sur {t} @ {when}", f"Merci de confirmer votre présence : {t}"],
                 "de": [f"Einladung: Besprechung {t} @ {when}", f"Bitte um Zusage: Workshop {t}"],
                 "es": [f"Invitación: revisión de {t} @ {when}", f"Confirma tu asistencia: {t}"],
                 "it": [f"Invito: revisione di {t} @ {when}", f"Conferma la partecipazione: {t}"]})
    opts = L(c, {"en": "Going? Yes - Maybe - No", "fr": "Participer ? Oui - Peut-être - Non", "de": "Teilnehmen? Ja - Vielleicht - Nein",
                 "es": "¿Asistirás? Sí - Quizás - No", "it": "Parteciperai? Sì - Forse - No"})
    org = L(c, {"en": f"Organiser: {s['name']}", "fr": f"Organisateur : {s['name']}", "de": f"Organisator: {s['name']}",
                "es": f"Organizador: {s['name']}", "it": f"Organizzatore: {s['name']}"})
    return dict(subject=subj, text=f"{subj}\n{when}\n{org}\n\n{opts}\n\nhttps://calendar.{s['domain']}/event?eid={c.num()}\n",
                person=True, calendar=True)


def k_signature(c, s):
    doc = L(c, {"en": ["NDA", "Master Services Agreement", "Offer letter", "Statement of Work", "Lease renewal"],
                "fr": ["accord de confidentialité", "contrat de prestation", "avenant au bail"],
                "de": ["Geheimhaltungsvereinbarung", "Rahmenvertrag", "Arbeitsvertrag"],
                "es": ["acuerdo de confidencialidad", "contrato marco", "carta de oferta"],
                "it": ["accordo di riservatezza", "contratto quadro", "lettera di assunzione"]})
    who = c.name()
    subj = L(c, {"en": [f"{who} sent you a document to sign: {doc}", f"Please sign: {doc}", f"Reminder: {doc} is awaiting your signature"],
                 "fr": [f"{who} vous invite à signer : {doc}", f"Document à signer : {doc}"],
                 "de": [f"{who} bittet Sie um Ihre Unterschrift: {doc}", f"Bitte unterschreiben: {doc}"],
                 "es": [f"{who} le ha enviado un documento para firmar: {doc}", f"Firma pendiente: {doc}"],
                 "it": [f"{who} ti ha inviato un documento da firmare: {doc}", f"Firma richiesta: {doc}"]})
    body = L(c, {"en": "Review and sign the document. The request expires in 7 days.", "fr": "Consultez et signez le document avant expiration.",
                 "de": "Bitte prüfen und unterschreiben Sie das Dokument.", "es": "Revise y firme el documento.", "it": "Rivedi e firma il documento."})
    return dict(subject=subj, text=f"{body}\n\nhttps://{s['domain']}/sign/{c.num()}\n", html=True, auto=c.r.random() < 0.5)


def k_moderation(c, s):
    lst = c.pick(["dev", "users", "announce", "ops", "general", "members", "board"])
    who = c.name("en").lower().replace(" ", ".")
    subj = c.pick([f"Your authorization is required for a {lst} mailing list posting approval",
                   f"{lst}@{s['domain']} post from {who}@example.net requires approval",
                   f"[{lst}] 3 messages pending moderation", f"Moderation request for {lst}"])
    text = (f"As list administrator, your authorization is requested for the following mailing list posting:\n\n"
            f"    List:    {lst}@{s['domain']}\n    From:    {who}@example.net\n    Subject: {c.topic()}\n"
            f"    Reason:  Post by non-member to a members-only list\n\n"
            f"At your convenience, visit https://{s['domain']}/mailman/admindb/{lst} to approve or deny the request.\n")
    return dict(subject=subj, text=text, auto=c.r.random() < 0.6)


def k_review_request(c, s):
    repo = f"{s['org'].lower()}/{c.pick(REPOS)}"
    pr = c.num(10, 3000)
    who = c.pick(["jdoe", "mchen", "priya-dev", "lukas-w", "camille-m", "dgarcia", "gbianchi", "okafor-t"])
    title = c.pick(["Add retry to webhook sender", "Bump openssl to 3.0.13", "Fix race in cache eviction", "Refactor auth middleware",
                    "Migrate CI to new runners", "Drop Python 3.8 support", "Speed up report export"])
    if s["tool"] == "gitlab":
        subj = f"{repo} | {title} (!{pr}) | review requested"
        text = f"{who} requested your review on merge request !{pr}: {title}.\n\nhttps://gitlab.{s['domain']}/{repo}/-/merge_requests/{pr}\n"
    else:
        subj = f"[{repo}] {title} (PR #{pr})"
        text = f"@{who} requested your review on: {repo}#{pr} {title}.\n\n-- \nReply to this email directly, view it on GitHub:\nhttps://github.com/{repo}/pull/{pr}\n"
    return dict(subject=subj, text=text, auto=False, notify=True)


def k_action_items(c, s):
    t = c.topic()
    items = L(c, {"en": [f"- {c.me}: send the updated figures for {t} by {c.weekday()}", f"- {c.me}: book the room for the follow-up",
                          f"- {c.me} to confirm the vendor quote", f"- {c.name()}: draft the summary"],
                  "fr": [f"- {c.me} : envoyer les chiffres de {t} avant {c.weekday()}", f"- {c.me} : confirmer le devis"],
                  "de": [f"- {c.me}: Zahlen zu {t} bis {c.weekday()} schicken", f"- {c.me}: Angebot bestätigen"],
                  "es": [f"- {c.me}: enviar las cifras de {t} antes del {c.weekday()}", f"- {c.me}: confirmar el presupuesto"],
                  "it": [f"- {c.me}: inviare i numeri di {t} entro {c.weekday()}", f"- {c.me}: confermare il preventivo"]})
    head = L(c, {"en": ["Action items from today's meeting:", "Follow-ups (please tick yours off):"], "fr": ["Actions à mener suite à la réunion :"],
                 "de": ["To-dos aus dem Meeting:"], "es": ["Tareas pendientes de la reunión:"], "it": ["Azioni dalla riunione di oggi:"]})
    subj = L(c, {"en": [f"Action items: {t}", f"Follow-up: {t} meeting"], "fr": [f"Actions : {t}"], "de": [f"To-dos: {t}"],
                 "es": [f"Tareas: {t}"], "it": [f"Azioni: {t}"]})
    return dict(subject=subj, text=f"{c.greet()}\n\n{head}\n{items}\n\n{c.sign(s['name'])}\n", person=True, reply=c.r.random() < 0.3)


def k_access_review(c, s):
    n = c.r.randint(3, 40)
    subj = L(c, {"en": [f"Quarterly access review due {c.day()}", f"Certify access for {n} users in {c.pick(PRODUCTS)}"],
                 "fr": [f"Revue des accès à effectuer avant le {c.day()}"], "de": [f"Zugriffsrezertifizierung fällig am {c.day()}"],
                 "es": [f"Revisión de accesos pendiente antes del {c.day()}"], "it": [f"Revisione degli accessi entro il {c.day()}"]})
    body = L(c, {"en": f"You are the owner of {n} accounts that must be certified. Keep or revoke each one before the deadline.",
                 "fr": f"Vous êtes responsable de {n} comptes à certifier. Conservez ou révoquez chaque accès avant l'échéance.",
                 "de": f"Sie sind Verantwortliche/r für {n} Konten. Bitte jeden Zugriff vor der Frist bestätigen oder entziehen.",
                 "es": f"Es responsable de {n} cuentas que deben certificarse. Mantenga o revoque cada acceso antes de la fecha límite.",
                 "it": f"Sei responsabile di {n} account da certificare. Mantieni o revoca ogni accesso entro la scadenza."})
    return dict(subject=subj, text=f"{body}\n\nhttps://{s['domain']}/reviews/{c.num()}\n", auto=True, html=c.r.random() < 0.5)

# ---------------------------------------------------------------- FYI

def k_cron(c, s):
    host = c.pick(HOSTS)
    cmd = c.pick(["/usr/local/bin/backup.sh", "run-parts /etc/cron.daily", "/opt/scripts/rotate-logs", "certbot renew -q",
                  "/usr/bin/php /var/www/app/artisan schedule:run", "apt-get -qq update", "/srv/etl/nightly.py --full"])
    out = c.pick(["", "/etc/cron.daily/logrotate:\nerror: skipping \"/var/log/nginx/access.log\" because parent directory has insecure permissions",
                  f"Processed {c.num()} rows in {c.r.randint(2, 900)}s", "Cert not yet due for renewal",
                  f"WARNING: disk usage at {c.r.randint(70, 99)}% on /var"])
    return dict(subject=f"Cron <root@{host}> {cmd}", text=out or "(no output)\n", from_override=f"Cron Daemon <root@{host}.{s['domain']}>",
                auto=c.r.random() < 0.4, plain=True)


def k_backup(c, s):
    ok = c.r.random() < 0.7
    job = c.pick(["nightly-full", "db-dump", "fileserver", "vm-snapshots", "offsite-sync"])
    subj = L(c, {"en": [f"[{'Success' if ok else 'Warning'}] Backup job {job}", f"Backup report for {c.pick(HOSTS)}: {'OK' if ok else 'completed with warnings'}"],
                 "fr": [f"[{'Succès' if ok else 'Avertissement'}] Tâche de sauvegarde {job}"],
                 "de": [f"[{'Erfolg' if ok else 'Warnung'}] Sicherungsauftrag {job}"],
                 "es": [f"[{'Éxito' if ok else 'Aviso'}] Copia de seguridad {job}"], "it": [f"[{'Successo' if ok else 'Avviso'}] Backup {job}"]})
    text = f"Job: {job}\nStart: {c.r.randint(0, 4):02d}:{c.r.randint(0, 59):02d}\nDuration: {c.r.randint(3, 180)} min\nTransferred: {c.r.randint(1, 900)} GB\nStatus: {'Success' if ok else 'Warning: 2 files skipped (locked)'}\n"
    return dict(subject=subj, text=text, auto=True, html=c.r.random() < 0.3)


def k_deploy(c, s):
    svc = c.pick(SERVICES)
    ver = f"v{c.r.randint(1, 9)}.{c.r.randint(0, 40)}.{c.r.randint(0, 20)}"
    res = c.pick(["succeeded", "finished", "is live", "failed", "rolled back"])
    subj = c.pick([f"Deploy {res}: {svc} {ver} to production", f"[{svc}] Deployment {ver} {res}", f"{svc} ({ver}) {res} on {c.pick(['staging', 'production', 'eu-west-1'])}"])
    text = f"Service: {svc}\nVersion: {ver}\nCommit: {hashlib.sha1(str(c.num()).encode()).hexdigest()[:10]}\nTriggered by: {c.pick(['ci-bot', c.name('en')])}\nResult: {res}\n"
    return dict(subject=subj, text=text, auto=True, html=c.r.random() < 0.5)


def k_bounce(c, s):
    to = f"{c.pick(FIRST['en']).lower()}@{c.pick(['example.org', 'old-partner.net', 'mail.invalid'])}"
    subj = c.pick(["Undelivered Mail Returned to Sender", "Delivery Status Notification (Failure)", "Mail delivery failed: returning message to sender",
                   "Returned mail: see transcript for details", "Non remis : " + c.topic(), "Unzustellbar: " + c.topic()])
    text = (f"This is the mail system at host mx.{s['domain']}.\n\nI'm sorry to have to inform you that your message could not\nbe delivered to one or more recipients.\n\n"
            f"<{to}>: host mx.{to.split('@')[1]} said: 550 5.1.1 User unknown\n")
    return dict(subject=subj, text=text, from_override=f"Mail Delivery System <MAILER-DAEMON@mx.{s['domain']}>", auto=True, plain=True)


def k_alert(c, s):
    host, svc = c.pick(HOSTS), c.pick(SERVICES)
    tool = s["tool"]
    state = c.pick(["FIRING", "RESOLVED", "PROBLEM", "RECOVERY", "CRITICAL", "WARNING", "OK"])
    metric = c.pick(["HighLatency", "DiskFull", "CPUThrottling", "5xxRate", "CertificateExpiry", "ReplicationLag", "PodCrashLooping", "QueueBacklog"])
    subj = {"alertmanager": f"[{state if state in ('FIRING', 'RESOLVED') else 'FIRING'}:{c.r.randint(1, 5)}] {metric} ({svc} {host})",
            "nagios": f"** {state if state in ('PROBLEM', 'RECOVERY') else 'PROBLEM'} Service Alert: {host}/{svc} is {c.pick(['CRITICAL', 'WARNING', 'OK'])} **",
            "zabbix": f"Problem: {metric} on {host}", "datadog": f"[Triggered] {metric} on {svc}",
            "grafana": f"[{c.pick(['Alerting', 'OK'])}] {metric} alert", "uptime": f"Monitor is {c.pick(['DOWN', 'UP'])}: {svc}.{s['domain']}",
            "pagerduty": f"[PagerDuty ALERT] #{c.num(1000, 99999)}: {metric} on {svc}",
            "opsgenie": f"[Opsgenie] {c.pick(['Alert', 'Closed'])}: {metric} - {host}",
            "newrelic": f"Incident {c.pick(['opened', 'closed'])}: {metric} for {svc}"}.get(tool, f"Alert: {metric} on {host}")
    text = (f"Alert: {metric}\nSeverity: {c.pick(['critical', 'warning', 'info', 'P1', 'P3'])}\nHost: {host}\nService: {svc}\n"
            f"Value: {c.r.randint(1, 100)}{c.pick(['%', 'ms', ' req/s', ''])}\nStarted: {c.date:%Y-%m-%d %H:%M} UTC\n"
            f"Runbook: https://wiki.{s['domain']}/runbooks/{metric.lower()}\n")
    if tool in ("pagerduty", "opsgenie"):
        text += c.pick(["\nAcknowledge: https://{d}/incidents/ack\nResolve: https://{d}/incidents/resolve\n", "\nView incident: https://{d}/incidents\n"]).format(d=s["domain"])
    return dict(subject=subj, text=text, auto=c.r.random() < 0.7, html=c.r.random() < 0.4)


def k_error_tracker(c, s):
    exc = c.pick(["TypeError: Cannot read properties of undefined (reading 'id')", "KeyError: 'customer_id'", "NullPointerException in OrderService.java:212",
                  "ActiveRecord::RecordNotFound", "panicked at 'called `Option::unwrap()` on a `None` value'", "ConnectionResetError: [Errno 104]"])
    proj = c.pick(SERVICES)
    subj = c.pick([f"[{s['org']}] {proj}: {exc[:50]}", f"New issue in {proj}: {exc[:40]}", f"Regression: {exc[:45]}", f"[{proj}] {c.r.randint(2, 900)} new events: {exc[:30]}"])
    text = f"{exc}\n\nProject: {proj}\nEnvironment: {c.pick(['production', 'staging'])}\nEvents: {c.r.randint(1, 5000)}\nUsers affected: {c.r.randint(0, 400)}\n\nhttps://{s['domain']}/issues/{c.num()}/\n"
    return dict(subject=subj, text=text, auto=c.r.random() < 0.6, html=c.r.random() < 0.6)


def k_vcs(c, s):
    repo = f"{s['org'].lower()}/{c.pick(REPOS)}"
    n = c.num(10, 4000)
    who = c.pick(["jdoe", "mchen", "priya-dev", "lukas-w", "camille-m", "dgarcia", "gbianchi", "dependabot[bot]", "renovate[bot]"])
    ev = c.r.randint(0, 5)
    title = c.pick(["Crash when exporting CSV", "Bump serde from 1.0.195 to 1.0.196", "Docs: clarify retry semantics", "Flaky test in auth suite",
                    "Support IPv6 in health checks", "Memory leak in worker pool"])
    if s["tool"] == "gitlab":
        subj = c.pick([f"{repo} | Pipeline #{n} has failed for main", f"{repo} | {title} (#{n})", f"Re: {repo} | {title} (!{n})"])
    elif s["tool"] == "bitbucket":
        subj = f"[Bitbucket] {c.pick(['Pull request', 'Commit'])} on {repo}: {title}"
    else:
        subj = [f"[{repo}] {title} (Issue #{n})", f"Re: [{repo}] {title} (#{n})", f"[{repo}] Run failed: CI - main ({hashlib.md5(str(n).encode()).hexdigest()[:7]})",
                f"Re: [{repo}] {title} (PR #{n})", f"[{repo}] Release v{c.r.randint(0, 9)}.{c.r.randint(0, 30)}.0", f"[{repo}] {who} pushed {c.r.randint(1, 9)} commits"][ev]
    comment = c.pick(["I can reproduce this on main with the attached config.", "Merged, thanks!", "This was fixed in #" + str(n - 3) + ".",
                      "CI is green now.", "Closing as duplicate.", "LGTM, the tests cover the edge case.", "See the logs below; the job timed out after 60 minutes."])
    text = f"{who} {c.pick(['commented', 'left a comment', 'closed this', 'merged'])}:\n\n{comment}\n\n-- \nReply to this email directly or view it on the web:\nhttps://{s['domain']}/{repo}/issues/{n}\nYou are receiving this because you are subscribed to this thread.\n"
    return dict(subject=subj, text=text, auto=c.r.random() < 0.3, notify=True, html=c.r.random() < 0.5)


def k_jenkins(c, s):
    job = c.pick(["api-server-main", "nightly-integration", "release-pipeline", "frontend-pr", "db-migrations"])
    res = c.pick(["SUCCESS", "FAILURE", "UNSTABLE", "Back to normal", "Still Failing", "ABORTED"])
    subj = c.pick([f"Build # {c.r.randint(100, 9999)} - {job} - {res}", f"{res}: Job '{job} [{c.r.randint(100, 9999)}]'", f"[Jenkins] {job} #{c.r.randint(100, 9999)} {res}"])
    text = f"Build: https://ci.{s['domain']}/job/{job}/{c.r.randint(100, 9999)}/\nProject: {job}\nDate of build: {c.date:%a, %d %b %Y %H:%M}\nBuild duration: {c.r.randint(1, 90)} min\n\nCHANGES\n {c.pick(['Fix flaky test', 'Bump deps', 'No changes'])}\n"
    return dict(subject=subj, text=text, auto=c.r.random() < 0.2, plain=True)


def k_tracker(c, s):
    key = f"{c.pick(['OPS', 'PLAT', 'WEB', 'DATA', 'SEC', 'INFRA'])}-{c.num(10, 9999)}"
    title = c.pick(["Upgrade Postgres to 16", "Login page slow for EU users", "Rotate staging credentials", "Add audit log export", "Broken link in footer"])
    tool = s["tool"]
    subj = {"jira": c.pick([f"[JIRA] ({key}) {title}", f"[{s['org']} JIRA] Updates for {key}: {title}", f"[JIRA] {c.name('en')} commented on {key}"]),
            "redmine": f"[{c.pick(['Feature', 'Bug', 'Support'])} #{c.num(10, 9999)}] {title}",
            "bugzilla": f"[Bug {c.num(100000, 999999)}] {title}", "youtrack": f"{key} {title}",
            "servicenow": f"Incident INC{c.num(100000, 9999999)} has been {c.pick(['updated', 'resolved', 'assigned to your group'])}"}.get(tool, f"[{key}] {title}")
    status = L(c, {"en": ["Status changed: In Progress -> Done", "Priority: Major", "Comment added", "Assignee changed"],
                   "fr": ["Statut : En cours -> Terminé", "Commentaire ajouté"], "de": ["Status: In Arbeit -> Erledigt", "Kommentar hinzugefügt"],
                   "es": ["Estado: En curso -> Hecho", "Comentario añadido"], "it": ["Stato: In corso -> Fatto", "Commento aggiunto"]})
    text = f"{key}: {title}\n{status}\n\n{c.name()}: {c.pick(['Deployed to staging, verifying tomorrow.', 'Root cause was a missing index.', 'Works for me now.', 'Patch attached.'])}\n\nhttps://{s['domain']}/browse/{key}\n"
    return dict(subject=subj, text=text, auto=c.r.random() < 0.7, html=c.r.random() < 0.5, notify=True)


def k_cloud_notice(c, s):
    region = c.pick(["eu-west-1", "us-east-1", "europe-west3", "westeurope", "fra1", "ap-southeast-2"])
    subj = L(c, {"en": [f"Scheduled maintenance for your instances in {region}", f"Your {s['org']} bill for {MONTH['en'][c.date.month - 1]} is available",
                        f"[{s['org']}] Service health: elevated errors in {region} (resolved)", f"Budget alert: 80% of your monthly budget used"],
                 "fr": [f"Maintenance planifiée dans la région {region}", f"Votre facture {s['org']} de {MONTH['fr'][c.date.month - 1]} est disponible"],
                 "de": [f"Geplante Wartung in Region {region}", f"Ihre {s['org']}-Rechnung für {MONTH['de'][c.date.month - 1]} ist verfügbar"],
                 "es": [f"Mantenimiento programado en la región {region}", f"Su factura de {s['org']} de {MONTH['es'][c.date.month - 1]} ya está disponible"],
                 "it": [f"Manutenzione programmata nella regione {region}", f"La fattura {s['org']} di {MONTH['it'][c.date.month - 1]} è disponibile"]})
    body = L(c, {"en": "No action is required on your part; instances will be live-migrated. The amount will be charged automatically.",
                 "fr": "Aucune action n'est requise de votre part. Le montant sera prélevé automatiquement.",
                 "de": "Es ist keine Aktion Ihrerseits erforderlich. Der Betrag wird automatisch abgebucht.",
                 "es": "No es necesaria ninguna acción por su parte. El importe se cargará automáticamente.",
                 "it": "Non è richiesta alcuna azione da parte tua. L'importo sarà addebitato automaticamente."})
    return dict(subject=subj, text=f"{body}\n\nAccount: {c.num(100000000000, 999999999999)}\nhttps://console.{s['domain']}/\n", html=c.r.random() < 0.7,
                auto=c.r.random() < 0.5)


def k_advisory(c, s):
    pkg = c.pick(["openssl", "curl", "linux", "postgresql-15", "nginx", "glibc", "sudo", "git", "libxml2", "python3.11"])
    ident = c.pick([f"DSA-{c.num(4000, 5999)}-1", f"USN-{c.num(5000, 7999)}-1", f"GHSA-{c.num(1000, 9999)}-x{c.num(100, 999)}", f"CVE-20{c.r.randint(10, 26)}-{c.num(1000, 49999)}"])
    subj = c.pick([f"[SECURITY] [{ident}] {pkg} security update", f"{ident}: {pkg} vulnerabilities", f"Security advisory {ident} ({pkg})",
                   f"[{s['org'].lower()}/{c.pick(REPOS)}] Dependabot alert: {pkg} vulnerable"])
    text = f"{ident}\nPackage: {pkg}\n\nSeveral vulnerabilities were discovered in {pkg} which could result in denial of service or information disclosure.\n\nFixed in version {c.r.randint(1, 9)}.{c.r.randint(0, 20)}.{c.r.randint(0, 9)}.\n"
    return dict(subject=subj, text=text, auto=c.r.random() < 0.4, plain=True)


def k_receipt(c, s):
    amt = c.money(3, 900)
    order = f"{c.pick(['#', 'Nº ', ''])}{c.num(100000, 9999999)}"
    subj = L(c, {"en": [f"Your receipt from {s['org']} {order}", f"Payment received - thank you", f"Order confirmation {order}", f"Your {s['org']} receipt ({amt})"],
                 "fr": [f"Votre reçu {s['org']} {order}", "Paiement reçu, merci", f"Confirmation de commande {order}"],
                 "de": [f"Ihre Quittung von {s['org']} {order}", "Zahlung erhalten – vielen Dank", f"Bestellbestätigung {order}"],
                 "es": [f"Su recibo de {s['org']} {order}", "Pago recibido, gracias", f"Confirmación del pedido {order}"],
                 "it": [f"La tua ricevuta {s['org']} {order}", "Pagamento ricevuto, grazie", f"Conferma d'ordine {order}"]})
    body = L(c, {"en": f"We received your payment of {amt}. No further action is needed.", "fr": f"Nous avons bien reçu votre paiement de {amt}.",
                 "de": f"Wir haben Ihre Zahlung über {amt} erhalten.", "es": f"Hemos recibido su pago de {amt}.", "it": f"Abbiamo ricevuto il tuo pagamento di {amt}."})
    return dict(subject=subj, text=f"{body}\n\n{c.pick(PRODUCTS)} x{c.r.randint(1, 3)}    {amt}\n", html=True, auto=c.r.random() < 0.3)


def k_shipping(c, s):
    track = f"{c.pick(['1Z', 'JD', 'DE', 'LX', ''])}{c.num(10000000, 99999999)}"
    subj = L(c, {"en": ["Your order has shipped", f"Out for delivery: order {c.num()}", "Your parcel is on its way", f"Delivered: tracking {track}"],
                 "fr": ["Votre commande a été expédiée", "Votre colis est en cours de livraison"], "de": ["Ihre Bestellung wurde versandt", "Ihr Paket ist unterwegs"],
                 "es": ["Tu pedido ha sido enviado", "Tu paquete está en camino"], "it": ["Il tuo ordine è stato spedito", "Il tuo pacco è in consegna"]})
    body = L(c, {"en": f"Tracking number: {track}. Estimated delivery: {c.day(c.r.randint(1, 5))}.", "fr": f"Numéro de suivi : {track}. Livraison estimée : {c.day(3)}.",
                 "de": f"Sendungsnummer: {track}. Voraussichtliche Zustellung: {c.day(3)}.", "es": f"Número de seguimiento: {track}. Entrega estimada: {c.day(3)}.",
                 "it": f"Numero di tracciamento: {track}. Consegna prevista: {c.day(3)}."})
    return dict(subject=subj, text=body + "\n", html=True)


def k_signin(c, s):
    dev = c.pick(["Firefox on Linux", "Chrome on Windows", "Safari on iPhone", "Edge on Windows 11", "the mobile app on Android"])
    place = c.pick(["Berlin, Germany", "Lyon, France", "Madrid, Spain", "Milan, Italy", "London, UK", "Austin, US"])
    subj = L(c, {"en": [f"New sign-in to your {s['org']} account", "Security alert: new login", f"New login from {dev}"],
                 "fr": ["Nouvelle connexion à votre compte", "Alerte de sécurité : nouvelle connexion"], "de": ["Neue Anmeldung bei Ihrem Konto", "Sicherheitshinweis: neue Anmeldung"],
                 "es": ["Nuevo inicio de sesión en tu cuenta", "Alerta de seguridad: nuevo acceso"], "it": ["Nuovo accesso al tuo account", "Avviso di sicurezza: nuovo accesso"]})
    body = L(c, {"en": f"We noticed a new sign-in from {dev} near {place}. If this was you, you can ignore this email.",
                 "fr": f"Nouvelle connexion depuis {dev} près de {place}. Si c'était vous, ignorez ce message.",
                 "de": f"Neue Anmeldung über {dev} in der Nähe von {place}. Wenn Sie das waren, können Sie diese E-Mail ignorieren.",
                 "es": f"Nuevo inicio de sesión desde {dev} cerca de {place}. Si fuiste tú, ignora este correo.",
                 "it": f"Nuovo accesso da {dev} vicino a {place}. Se sei stato tu, ignora questa email."})
    return dict(subject=subj, text=body + "\n", html=c.r.random() < 0.6, auto=c.r.random() < 0.5)


def k_autoreply(c, s):
    back = c.day(c.r.randint(2, 14))
    subj = L(c, {"en": [f"Out of Office: {c.topic()}", "Automatic reply: " + c.topic(), "Auto: I'm away"],
                 "fr": ["Réponse automatique : absent(e)", "Absence du bureau"], "de": ["Abwesenheitsnotiz", "Automatische Antwort: " + c.topic()],
                 "es": ["Respuesta automática: fuera de la oficina", "Fuera de la oficina"], "it": ["Risposta automatica: fuori sede", "Fuori ufficio"]})
    body = L(c, {"en": f"I am out of the office until {back} with limited access to email. For urgent matters contact {c.name()}.",
                 "fr": f"Je suis absent(e) jusqu'au {back}. Pour toute urgence, contactez {c.name()}.",
                 "de": f"Ich bin bis {back} nicht im Büro. In dringenden Fällen wenden Sie sich an {c.name()}.",
                 "es": f"Estoy fuera de la oficina hasta el {back}. Para asuntos urgentes, contacte con {c.name()}.",
                 "it": f"Sono fuori ufficio fino al {back}. Per urgenze contattare {c.name()}."})
    return dict(subject=subj, text=body + "\n", auto="auto-replied", person=True, autoreply=True)


def k_personal_note(c, s):
    t = c.topic()
    body = L(c, {"en": [f"Thanks, got it. I'll file {t} with the rest.", f"FYI, I've shared {t} with the team. Nothing needed from you.",
                        f"Great news about {t}! Enjoy the weekend.", f"Just a heads-up: I'm working from the Lyon office next week.", "Photos from Saturday attached :)"],
                 "fr": [f"Merci, bien reçu pour {t}.", "Pour info, je serai au bureau de Lyon la semaine prochaine.", "Les photos de samedi en pièce jointe :)"],
                 "de": [f"Danke, {t} ist angekommen.", "Nur zur Info: nächste Woche bin ich im Home-Office.", "Anbei die Fotos von Samstag :)"],
                 "es": [f"Gracias, recibido {t}.", "Para que lo sepas: la semana que viene trabajo desde Valencia.", "Te paso las fotos del sábado :)"],
                 "it": [f"Grazie, ricevuto {t}.", "Per tua info: la prossima settimana lavoro da Torino.", "Ecco le foto di sabato :)"]})
    subj = c.pick([t[0].upper() + t[1:], L(c, {"en": ["FYI", "Thanks!", "Photos", "Heads-up"], "fr": ["Pour info", "Merci !", "Photos"],
                                                "de": ["Zur Info", "Danke!", "Fotos"], "es": ["Para tu información", "¡Gracias!", "Fotos"],
                                                "it": ["Per info", "Grazie!", "Foto"]})])
    return dict(subject=subj, text=f"{c.greet()}\n\n{body}\n\n{c.sign(s['name'])}\n", person=True, reply=c.r.random() < 0.5)


def k_list_post(c, s):
    lst = s["list"]
    body = L(c, {"en": ["I've seen the same behaviour since the upgrade; downgrading the driver fixed it for me.",
                        "The patch looks right, but it breaks the build on 32-bit ARM. Log attached below.",
                        "For what it's worth, we run this in production with the default settings and never hit the issue.",
                        "This was discussed in 2009 on this list; the consensus was to keep the old behaviour.",
                        "Minutes of yesterday's call are on the wiki. Next call in two weeks."],
                 "fr": ["J'ai le même comportement depuis la mise à jour ; revenir à l'ancien pilote a réglé le problème.",
                        "Le correctif me semble bon mais casse la compilation sur ARM 32 bits."],
                 "de": ["Ich sehe dasselbe Verhalten seit dem Update; ein Downgrade des Treibers hat geholfen.",
                        "Der Patch sieht gut aus, bricht aber den Build auf 32-Bit-ARM."],
                 "es": ["Veo el mismo comportamiento desde la actualización; volver al controlador anterior lo solucionó.",
                        "El parche parece correcto, pero rompe la compilación en ARM de 32 bits."],
                 "it": ["Vedo lo stesso comportamento dall'aggiornamento; tornare al driver precedente ha risolto.",
                        "La patch sembra corretta ma rompe la build su ARM a 32 bit."]})
    thread = c.pick(["segfault on startup with 2.4", "Proposal: drop support for old kernels", "config reload not picking up changes",
                     "Mirror sync delays", "Meeting notes", "Build failure on FreeBSD", "Question about licence headers", "Unicode in file names"])
    quote = f"\n\n{c.name('en')} wrote:\n> {c.pick(['Has anyone else seen this?', 'Any objections?', 'Patch below.', 'Thoughts?'])}\n" if c.r.random() < 0.6 else ""
    return dict(subject=f"Re: {thread}" if c.r.random() < 0.7 else thread, text=f"{body}{quote}\n\n-- \n{s['name']}\n", listpost=True, person=True)

# ---------------------------------------------------------------- Newsletter

HEADLINES = {
    "en": ["Why boring technology wins", "The quiet death of the status page", "What we learned running Postgres at scale", "A field guide to on-call burnout",
           "Five charts on the chip market", "How small teams ship weekly", "The case for fewer dashboards", "Inside a cable-cutting incident",
           "Notes on writing runbooks", "The economics of open source maintainers", "Europe's new AI rules, explained", "Rust in the Linux kernel, a year on"],
    "fr": ["Pourquoi la sobriété numérique gagne du terrain", "Ce que nous a appris la panne de juin", "Le retour des forums", "L'IA et le droit d'auteur, où en est-on ?",
           "Cinq graphiques sur l'énergie en Europe", "Petit guide de l'astreinte sereine"],
    "de": ["Warum langweilige Technik gewinnt", "Was wir aus dem Ausfall im Juni gelernt haben", "Die Rückkehr der Foren", "KI-Verordnung: was jetzt gilt",
           "Fünf Grafiken zur Energiewende", "Ein Leitfaden für entspannte Rufbereitschaft"],
    "es": ["Por qué gana la tecnología aburrida", "Lo que aprendimos de la caída de junio", "El regreso de los foros", "La nueva ley de IA, explicada",
           "Cinco gráficos sobre la energía en Europa", "Guía para guardias sin agotamiento"],
    "it": ["Perché vince la tecnologia noiosa", "Cosa abbiamo imparato dal guasto di giugno", "Il ritorno dei forum", "Il nuovo regolamento sull'IA, spiegato",
           "Cinque grafici sull'energia in Europa", "Guida alla reperibilità senza stress"],
}
ISSUE = {"en": ["Issue #{n}", "No. {n}", "Edition {n}", "#{n}", "Vol. {v}, issue {n}"], "fr": ["Numéro {n}", "N°{n}", "Édition #{n}"],
         "de": ["Ausgabe {n}", "Nr. {n}", "#{n}"], "es": ["Número {n}", "Edición #{n}", "Nº {n}"], "it": ["Numero {n}", "N. {n}", "Edizione #{n}"]}
READ_MORE = {"en": ["Read more", "Continue reading", "Read the full story", "Read online"], "fr": ["Lire la suite", "Lire en ligne"],
             "de": ["Weiterlesen", "Im Browser lesen"], "es": ["Seguir leyendo", "Leer en línea"], "it": ["Continua a leggere", "Leggi online"]}
UNSUB_TEXT = {"en": ["Unsubscribe", "You are receiving this because you subscribed to {o}. Unsubscribe or manage preferences.",
                     "Don't want these emails? Unsubscribe."], "fr": ["Se désabonner", "Vous recevez cet e-mail car vous êtes abonné(e) à {o}. Se désinscrire."],
              "de": ["Abmelden", "Sie erhalten diese E-Mail, weil Sie {o} abonniert haben. Hier abbestellen."],
              "es": ["Darse de baja", "Recibes este correo porque te suscribiste a {o}. Cancelar suscripción."],
              "it": ["Annulla iscrizione", "Ricevi questa email perché sei iscritto a {o}. Disiscriviti."]}


def k_newsletter(c, s):
    n, v = c.r.randint(3, 480), c.r.randint(1, 12)
    tag = c.pick(ISSUE[c.lang] if c.lang in ISSUE else ISSUE["en"]).format(n=n, v=v)
    heads = c.r.sample(HEADLINES[c.lang], 3)
    style = s.get("nl_style") or c.pick(["essay", "digest", "dispatch", "tagged", "links"])
    if style == "essay" and c.r.random() < 0.3:
        style = "links"
    if style == "essay":
        subj = heads[0]
        text = f"{heads[0]}\n\n" + c.pick([
            {"en": "Last week I wrote about the cost of complexity. This week, a reader asked the obvious follow-up, and I think the answer deserves a whole post.",
             "fr": "La semaine dernière, j'écrivais sur le coût de la complexité. Cette semaine, une lectrice m'a posé la question suivante, qui mérite un billet entier.",
             "de": "Letzte Woche schrieb ich über die Kosten der Komplexität. Diese Woche stellte ein Leser die naheliegende Anschlussfrage.",
             "es": "La semana pasada escribí sobre el coste de la complejidad. Esta semana un lector me hizo la pregunta obvia.",
             "it": "La settimana scorsa ho scritto del costo della complessità. Questa settimana un lettore mi ha fatto la domanda ovvia."}.get(c.lang, "")]) + "\n\n" + \
            c.pick({"en": ["It starts, as these things do, with a spreadsheet.", "Here is what the numbers say, and what they leave out."],
                    "fr": ["Tout commence, comme souvent, par un tableur."], "de": ["Es beginnt, wie so oft, mit einer Tabelle."],
                    "es": ["Todo empieza, como siempre, con una hoja de cálculo."], "it": ["Tutto inizia, come spesso, con un foglio di calcolo."]}[c.lang])
    elif style == "tagged":
        subj = f"[{c.pick(['Newsletter', s['org'], s['org'] + ' Weekly', 'Daily', 'Digest'])}] {heads[0]}"
        text = f"{tag}\n\n" + "\n\n".join(f"{i + 1}. {h}\n{L(c, READ_MORE)}: https://{s['domain']}/p/{c.num()}" for i, h in enumerate(heads))
    elif style == "digest":
        subj = c.pick([f"{s['org']} {tag}: {heads[0]}", f"{L(c, {'en': 'This week', 'fr': 'Cette semaine', 'de': 'Diese Woche', 'es': 'Esta semana', 'it': 'Questa settimana'})}: {heads[0]}, {heads[1]}",
                       f"{s['org']} — {tag}"])
        text = L(c, {"en": "In this issue:", "fr": "Au sommaire :", "de": "In dieser Ausgabe:", "es": "En este número:", "it": "In questo numero:"}) + "\n" + \
            "\n".join(f"* {h}" for h in heads) + "\n\n" + "\n\n".join(f"{h.upper()}\n{L(c, READ_MORE)} -> https://{s['domain']}/{c.num()}" for h in heads)
    elif style == "links":
        subj = L(c, {"en": [f"Links of the week: {heads[0]}", f"Top stories: {heads[0]}", f"Roundup — {heads[0]} and more", f"This week in {s['org']}"],
                     "fr": [f"Les liens de la semaine : {heads[0]}", f"À la une : {heads[0]}"], "de": [f"Die Links der Woche: {heads[0]}", f"Top-Themen: {heads[0]}"],
                     "es": [f"Los enlaces de la semana: {heads[0]}", f"Lo más leído: {heads[0]}"], "it": [f"I link della settimana: {heads[0]}", f"In primo piano: {heads[0]}"]})
        text = "\n".join(f"→ {h} ({c.pick(['5 min', '8 min', '12 min', 'video', 'podcast'])})" for h in heads) + "\n\n" + c.pick([
            "Thanks for reading, and see you next week.", "Merci de votre lecture, à la semaine prochaine.", "Danke fürs Lesen, bis nächste Woche.",
            "Gracias por leer, hasta la semana que viene.", "Grazie per la lettura, alla prossima settimana."])
    else:  # dispatch
        subj = L(c, {"en": [f"Morning Briefing: {heads[0]}", f"The Daily: {heads[0]}", f"Your {c.weekday()} briefing"],
                     "fr": [f"Le brief du matin : {heads[0]}", f"L'essentiel du {c.weekday()}"], "de": [f"Die Morgenlage: {heads[0]}", f"Der Überblick am {c.weekday()}"],
                     "es": [f"El boletín de la mañana: {heads[0]}", f"Lo esencial del {c.weekday()}"], "it": [f"La rassegna del mattino: {heads[0]}", f"L'essenziale di {c.weekday()}"]})
        text = "\n\n".join(f"■ {h}\n{c.pick(['Reported by', 'By', 'Par', 'Von', 'Por', 'Di'])} {c.name()}" for h in heads)
    text += "\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]) + "\n"
    return dict(subject=subj, text=text, html=c.r.random() < 0.8, bulk=True)


def k_release_notes(c, s):
    prod = s["org"]
    ver = f"{c.r.randint(1, 30)}.{c.r.randint(0, 12)}"
    month = MONTH[c.lang][c.date.month - 1]
    subj = L(c, {"en": [f"What's new in {prod} – {month}", f"{prod} {ver} release notes", f"{prod} changelog: {month} highlights"],
                 "fr": [f"Les nouveautés de {prod} en {month}", f"Notes de version {prod} {ver}"], "de": [f"Neu in {prod} im {month}", f"Versionshinweise {prod} {ver}"],
                 "es": [f"Novedades de {prod} en {month}", f"Notas de la versión {prod} {ver}"], "it": [f"Le novità di {prod} a {month}", f"Note di rilascio {prod} {ver}"]})
    feats = c.r.sample(["Dark mode for the dashboard", "Faster CSV import", "SAML single sign-on", "New REST endpoints for webhooks", "Audit log filters",
                        "Keyboard shortcuts", "Improved search ranking", "ARM64 builds"], 3)
    text = f"{subj}\n\n" + "\n".join(f"- {f}" for f in feats) + "\n\n" + L(c, READ_MORE) + f": https://{s['domain']}/changelog\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=prod)
    return dict(subject=subj, text=text, html=c.r.random() < 0.7, bulk=True)


def k_rss(c, s):
    h = c.pick(HEADLINES[c.lang])
    blog = s["org"]
    subj = c.pick([f"{blog}: {h}", f"New post on {blog}: {h}", f"[{blog}] {h}", h])
    text = f"{h}\n{c.pick(['Posted by', 'Publié par', 'Veröffentlicht von', 'Publicado por', 'Pubblicato da'])} {c.name()} — {c.date:%Y-%m-%d}\n\n" + \
        c.pick(["A short post about a long debugging session.", "Some notes from the conference, with slides.", "Part 3 of the series on storage engines.",
                "Quelques notes sur la conférence.", "Ein paar Gedanken zur Konferenz.", "Unas notas sobre la conferencia.", "Alcuni appunti dalla conferenza."]) + \
        f"\n\n{L(c, READ_MORE)}: https://{s['domain']}/{c.date:%Y/%m}/{c.num()}.html\n\n--\nDelivered by {c.pick(['FeedBurner', 'Blogtrottr', 'Feedrabbit', 'the blog mailer'])}\n"
    return dict(subject=subj, text=text, bulk=True, html=c.r.random() < 0.5)


def k_announce(c, s):
    proj = s["list"].split("-")[0].capitalize()
    ver = f"{c.r.randint(0, 9)}.{c.r.randint(0, 30)}.{c.r.randint(0, 9)}"
    subj = c.pick([f"[ANNOUNCE] {proj} {ver} released", f"[{s['list']}] {proj} {ver} is out", f"{proj} weekly news #{c.r.randint(1, 300)}",
                   f"[{s['list']}] {proj} project newsletter, {MONTH['en'][c.date.month - 1]} {c.date.year}"])
    text = f"The {proj} team is pleased to announce {proj} {ver}.\n\nHighlights:\n  * {c.pick(['faster startup', 'new config syntax', 'IPv6 fixes'])}\n  * {c.pick(['security fixes', 'updated translations', 'better docs'])}\n\nDownload: https://{s['domain']}/download/\nFull changelog: https://{s['domain']}/news/\n"
    return dict(subject=subj, text=text, announcelist=True, plain=True)


def k_community_digest(c, s):
    n = c.r.randint(3, 25)
    subj = L(c, {"en": [f"[{s['org']}] Summary: {n} new topics this week", f"{s['org']} weekly digest", f"Top posts this week on {s['org']}"],
                 "fr": [f"[{s['org']}] Résumé : {n} nouveaux sujets cette semaine"], "de": [f"[{s['org']}] Zusammenfassung: {n} neue Themen"],
                 "es": [f"[{s['org']}] Resumen: {n} temas nuevos esta semana"], "it": [f"[{s['org']}] Riepilogo: {n} nuovi argomenti"]})
    heads = c.r.sample(HEADLINES[c.lang], 3)
    text = L(c, {"en": "Popular topics", "fr": "Sujets populaires", "de": "Beliebte Themen", "es": "Temas populares", "it": "Argomenti popolari"}) + \
        "\n\n" + "\n".join(f"{h} — {c.r.randint(2, 90)} replies" for h in heads) + "\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"])
    return dict(subject=subj, text=text, bulk=True, html=True)


# ---------------------------------------------------------------- Promotional

def k_sale(c, s):
    pct = c.pick([10, 15, 20, 25, 30, 40, 50, 60, 70])
    code = c.pick(["SAVE", "WELCOME", "SPRING", "BF", "VIP", "HELLO"]) + str(c.r.randint(10, 99))
    ends = c.day(c.r.randint(1, 7))
    subj = L(c, {"en": [f"{pct}% off everything — ends {ends}", f"Last chance: {pct}% off ends tonight", f"Black Friday: up to {pct}% off",
                        f"Your exclusive code {code} inside", f"Flash sale ⚡ {pct}% off for 48 hours", f"Save {c.money(5, 200)} on your next order"],
                 "fr": [f"-{pct} % sur tout le site jusqu'au {ends}", f"Dernière chance : -{pct} %", f"Soldes : jusqu'à -{pct} %", f"Votre code promo {code}"],
                 "de": [f"{pct} % Rabatt auf alles – nur bis {ends}", f"Letzte Chance: {pct} % sparen", f"Sale: bis zu {pct} % reduziert", f"Ihr Gutscheincode {code}"],
                 "es": [f"{pct}% de descuento en todo hasta el {ends}", f"Última oportunidad: {pct}% de descuento", f"Rebajas: hasta un {pct}%", f"Tu cupón {code}"],
                 "it": [f"Sconto del {pct}% su tutto fino al {ends}", f"Ultima occasione: -{pct}%", f"Saldi: fino al {pct}% di sconto", f"Il tuo codice sconto {code}"]})
    body = L(c, {"en": [f"Use code {code} at checkout. Offer valid until {ends} while stocks last.", f"Our biggest sale of the year is here. Prices from {c.money(5, 80)}.",
                        f"Treat yourself: {pct}% off new arrivals, free shipping over {c.money(30, 80)}."],
                 "fr": [f"Utilisez le code {code} lors de votre commande. Offre valable jusqu'au {ends}.", f"Prix à partir de {c.money(5, 80)}, livraison offerte."],
                 "de": [f"Code {code} an der Kasse eingeben. Angebot gültig bis {ends}.", f"Preise ab {c.money(5, 80)}, versandkostenfrei."],
                 "es": [f"Usa el código {code} al pagar. Oferta válida hasta el {ends}.", f"Precios desde {c.money(5, 80)}, envío gratis."],
                 "it": [f"Usa il codice {code} al checkout. Offerta valida fino al {ends}.", f"Prezzi a partire da {c.money(5, 80)}, spedizione gratuita."]})
    cta = L(c, {"en": ["Shop now", "Get the deal", "Claim your discount"], "fr": ["J'en profite", "Acheter"], "de": ["Jetzt shoppen", "Zum Angebot"],
                "es": ["Comprar ahora", "Aprovechar"], "it": ["Acquista ora", "Approfitta"]})
    return dict(subject=subj, text=f"{body}\n\n{cta}: https://{s['domain']}/sale?c={code}\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]), html=True, bulk=True)


def k_upsell(c, s):
    plan = c.pick(["Pro", "Business", "Premium", "Plus", "Team"])
    subj = L(c, {"en": [f"Upgrade to {plan} and get 2 months free", f"You're close to your limit — go {plan}", f"Unlock {plan} features for {c.money(4, 30)}/month"],
                 "fr": [f"Passez à {plan} et obtenez 2 mois offerts", f"Débloquez {plan} pour {c.money(4, 30)}/mois"],
                 "de": [f"Jetzt auf {plan} upgraden: 2 Monate gratis", f"{plan}-Funktionen für {c.money(4, 30)}/Monat"],
                 "es": [f"Pásate a {plan} y consigue 2 meses gratis", f"Desbloquea {plan} por {c.money(4, 30)}/mes"],
                 "it": [f"Passa a {plan} e ottieni 2 mesi gratis", f"Sblocca {plan} a {c.money(4, 30)}/mese"]})
    body = L(c, {"en": f"Teams on {plan} get unlimited projects, priority support and SSO. Upgrade today and save 20% on annual billing.",
                 "fr": f"Avec {plan} : projets illimités, support prioritaire. Économisez 20 % avec la facturation annuelle.",
                 "de": f"Mit {plan}: unbegrenzte Projekte, Priority-Support. Sparen Sie 20 % bei jährlicher Zahlung.",
                 "es": f"Con {plan}: proyectos ilimitados y soporte prioritario. Ahorra un 20 % con el pago anual.",
                 "it": f"Con {plan}: progetti illimitati e assistenza prioritaria. Risparmia il 20% con la fatturazione annuale."})
    return dict(subject=subj, text=f"{body}\n\nhttps://{s['domain']}/pricing?utm_campaign=upsell\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]), html=True, bulk=True)


def k_webinar(c, s):
    t = c.pick(["Scaling observability without the bill", "Zero-trust in 30 minutes", "Kubernetes cost optimisation", "AI for customer support teams",
                "Modern data stacks for finance"])
    d = c.day()
    subj = L(c, {"en": [f"Webinar: {t} ({d})", f"Join us live: {t}", f"Save your seat — {t}", f"[Free webinar] {t}"],
                 "fr": [f"Webinaire : {t} le {d}", f"Réservez votre place : {t}"], "de": [f"Webinar: {t} am {d}", f"Jetzt Platz sichern: {t}"],
                 "es": [f"Webinar: {t} el {d}", f"Reserva tu plaza: {t}"], "it": [f"Webinar: {t} il {d}", f"Prenota il tuo posto: {t}"]})
    body = L(c, {"en": "Register now — seats are limited. Attendees get an exclusive 30% discount on our Enterprise plan.",
                 "fr": "Inscrivez-vous dès maintenant, places limitées. Remise exclusive de 30 % pour les participants.",
                 "de": "Jetzt anmelden – begrenzte Plätze. Teilnehmende erhalten 30 % Rabatt.",
                 "es": "Regístrate ya, plazas limitadas. Los asistentes obtienen un 30 % de descuento.",
                 "it": "Iscriviti ora, posti limitati. I partecipanti ottengono uno sconto esclusivo del 30%."})
    return dict(subject=subj, text=f"{body}\n\nhttps://events.{s['domain']}/register?utm_source=email\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]), html=True, bulk=True)


def k_launch(c, s):
    prod = c.pick(PRODUCTS) + c.pick([" 2", " X", " Go", " Max", ""])
    subj = L(c, {"en": [f"Introducing {prod}", f"It's here: {prod} — order today", f"Meet {prod}. Pre-order now and save"],
                 "fr": [f"Découvrez {prod}", f"Nouveau : {prod}, précommandez dès aujourd'hui"], "de": [f"Neu: {prod}", f"Jetzt vorbestellen: {prod}"],
                 "es": [f"Presentamos {prod}", f"Ya está aquí: {prod}, resérvalo hoy"], "it": [f"Ecco {prod}", f"È arrivato {prod}: preordina oggi"]})
    body = L(c, {"en": f"Launch price {c.money(19, 999)} for the first 1,000 customers. Free delivery.",
                 "fr": f"Prix de lancement {c.money(19, 999)} pour les 1 000 premiers clients.", "de": f"Einführungspreis {c.money(19, 999)} für die ersten 1.000 Kunden.",
                 "es": f"Precio de lanzamiento {c.money(19, 999)} para los primeros 1.000 clientes.", "it": f"Prezzo di lancio {c.money(19, 999)} per i primi 1.000 clienti."})
    return dict(subject=subj, text=f"{body}\n\nhttps://{s['domain']}/new?utm_medium=email\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]), html=True, bulk=True)


def k_sweepstakes(c, s):
    prize = c.pick(["a trip to Lisbon", "an e-bike", "a year of free coffee", "a new laptop", "un voyage à Rome", "ein E-Bike", "un viaje a Sevilla", "una crociera"])
    subj = L(c, {"en": [f"Win {prize}!", f"Enter now for a chance to win {prize}", "You could be our next winner 🎉"],
                 "fr": [f"Tentez de gagner {prize} !", "Jeu-concours : participez maintenant"], "de": [f"Gewinnen Sie {prize}!", "Gewinnspiel: jetzt mitmachen"],
                 "es": [f"¡Gana {prize}!", "Sorteo: participa ahora"], "it": [f"Vinci {prize}!", "Concorso: partecipa ora"]})
    return dict(subject=subj, text=f"{subj}\n\n{c.pick(['No purchase necessary.', 'Sans obligation d’achat.', 'Teilnahme ab 18.', 'Sin obligación de compra.', 'Nessun obbligo di acquisto.'])}\nhttps://{s['domain']}/win\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]), html=True, bulk=True)


def k_cold_outreach(c, s):
    pct = c.r.randint(20, 60)
    subj = L(c, {"en": [f"Cut your cloud bill by {pct}%", "Quick idea for your team", f"{c.pick(PRODUCTS)} for {c.pick(['logistics', 'retail', 'SaaS'])} companies",
                        "Partnership opportunity", "Can I send you a free trial?"],
                 "fr": [f"Réduisez vos coûts de {pct} %", "Une idée pour votre équipe", "Proposition de partenariat"],
                 "de": [f"Senken Sie Ihre Kosten um {pct} %", "Eine Idee für Ihr Team", "Kooperationsangebot"],
                 "es": [f"Reduzca sus costes un {pct} %", "Una idea para su equipo", "Propuesta de colaboración"],
                 "it": [f"Riduci i costi del {pct}%", "Un'idea per il tuo team", "Proposta di collaborazione"]})
    body = L(c, {"en": [f"We help companies like yours reduce infrastructure spend by {pct}% in 30 days. Our packages start at {c.money(99, 999)}/month, and this month we offer the setup for free.",
                        f"I'm reaching out because {c.pick(PRODUCTS)} is offering a limited discount to new customers: {pct}% off the first year."],
                 "fr": [f"Nous aidons les entreprises comme la vôtre à réduire leurs dépenses de {pct} %. Nos offres démarrent à {c.money(99, 999)}/mois, installation offerte ce mois-ci."],
                 "de": [f"Wir helfen Unternehmen wie Ihrem, die Kosten um {pct} % zu senken. Pakete ab {c.money(99, 999)}/Monat, Einrichtung diesen Monat gratis."],
                 "es": [f"Ayudamos a empresas como la suya a reducir costes un {pct} %. Planes desde {c.money(99, 999)}/mes, instalación gratis este mes."],
                 "it": [f"Aiutiamo aziende come la tua a ridurre i costi del {pct}%. Pacchetti da {c.money(99, 999)}/mese, installazione gratuita questo mese."]})
    return dict(subject=subj, text=f"{c.greet()}\n\n{body}\n\n{c.sign(s['name'])}\n{s['org']}\n", person=True)


def k_old_promo(c, s):
    """2000s-style marketing: no List-Unsubscribe, no ESP, shouting, removal by reply."""
    pct = c.pick([30, 50, 60, 70, 80])
    subj = c.pick([f"SPECIAL OFFER!!! {pct}% OFF ALL PRINTER INK", f"Lowest prices on software - save up to {pct}%", "Your FREE catalogue is waiting",
                   f"LIMITED TIME: {pct}% discount on office furniture", "Best mortgage rates - apply today", "Cheap flights to Europe from $199",
                   f"OFFRE EXCEPTIONNELLE : -{pct}% sur les cartouches", f"SONDERANGEBOT: {pct}% auf Druckerpatronen", f"OFERTA ESPECIAL: {pct}% de descuento",
                   f"OFFERTA SPECIALE: sconto del {pct}%"])
    body = c.pick([f"Dear valued customer,\n\nFor a limited time only, order now and save {pct}%! Prices start at only $9.95.\nCall toll free 1-800-{c.num(100, 999)}-{c.num(1000, 9999)} or visit www.{s['domain']}\n\nTo be removed from our mailing list, reply with REMOVE in the subject.",
                   f"Cher client,\n\nProfitez de -{pct}% sur toute notre gamme ! Commandez avant la fin du mois.\nwww.{s['domain']}\n\nPour ne plus recevoir nos offres, répondez STOP.",
                   f"Sehr geehrte Kundin, sehr geehrter Kunde,\n\nnur diese Woche: {pct}% Rabatt auf unser gesamtes Sortiment! Jetzt bestellen unter www.{s['domain']}\n\nAbmeldung: Antworten Sie mit ABMELDEN.",
                   f"Estimado cliente:\n\n¡Solo esta semana, {pct}% de descuento en todo el catálogo! Pida ya en www.{s['domain']}\n\nPara darse de baja responda BAJA.",
                   f"Gentile cliente,\n\nsolo per questa settimana sconto del {pct}% su tutto il catalogo! Ordina su www.{s['domain']}\n\nPer cancellarti rispondi RIMUOVI."])
    return dict(subject=subj, text=body + "\n", oldpromo=True, html=c.r.random() < 0.4)


def k_winback(c, s):
    subj = L(c, {"en": ["We miss you! Here's 20% off", "You left something in your cart", "Come back for a special offer"],
                 "fr": ["Vous nous manquez ! -20 % pour vous", "Vous avez oublié quelque chose dans votre panier"],
                 "de": ["Wir vermissen Sie! 20 % Rabatt", "Sie haben etwas im Warenkorb vergessen"],
                 "es": ["¡Te echamos de menos! 20 % de descuento", "Olvidaste algo en tu carrito"],
                 "it": ["Ci manchi! Ecco il 20% di sconto", "Hai dimenticato qualcosa nel carrello"]})
    body = L(c, {"en": f"Complete your order within 24 hours and get free shipping. Items from {c.money(9, 90)}.",
                 "fr": f"Finalisez votre commande sous 24 h et profitez de la livraison gratuite. Articles dès {c.money(9, 90)}.",
                 "de": f"Bestellung innerhalb von 24 Stunden abschließen und gratis Versand erhalten. Artikel ab {c.money(9, 90)}.",
                 "es": f"Completa tu pedido en 24 horas y el envío es gratis. Artículos desde {c.money(9, 90)}.",
                 "it": f"Completa l'ordine entro 24 ore e la spedizione è gratuita. Articoli da {c.money(9, 90)}."})
    return dict(subject=subj, text=f"{body}\n\nhttps://{s['domain']}/cart\n\n" + c.pick(UNSUB_TEXT[c.lang]).format(o=s["org"]), html=True, bulk=True)

# ---------------------------------------------------------------- Social

def k_social(c, s):
    who = c.name()
    net = s["org"]
    ev = c.pick(["connect", "message", "mention", "follow", "like", "comment", "tag", "birthday", "group", "rsvp", "endorse", "views",
                 "share", "accepted", "invite", "memory", "reaction"])
    T = {
        "connect": {"en": [f"{who} wants to connect", f"{who} sent you a connection request", f"{who} sent you a friend request", f"Add {who} as a contact?"],
                    "fr": [f"{who} souhaite se connecter avec vous", f"{who} vous a envoyé une invitation", f"{who} vous a ajouté comme ami"],
                    "de": [f"{who} möchte sich mit Ihnen vernetzen", f"Neue Kontaktanfrage von {who}", f"{who} hat dir eine Freundschaftsanfrage geschickt"],
                    "es": [f"{who} quiere conectar contigo", f"{who} te ha enviado una solicitud de amistad"],
                    "it": [f"{who} vuole collegarsi con te", f"{who} ti ha inviato una richiesta di amicizia"]},
        "message": {"en": [f"{who} sent you a message", f"New message from {who}", f"You have 1 unread message from {who}"],
                    "fr": [f"{who} vous a envoyé un message", f"Nouveau message de {who}"], "de": [f"{who} hat Ihnen eine Nachricht gesendet", f"Neue Nachricht von {who}"],
                    "es": [f"{who} te ha enviado un mensaje", f"Nuevo mensaje de {who}"], "it": [f"{who} ti ha inviato un messaggio", f"Nuovo messaggio da {who}"]},
        "mention": {"en": [f"{who} mentioned you in a comment", f"{who} mentioned you in a post", f"You were mentioned by @{who.split()[0].lower()}"],
                    "fr": [f"{who} vous a mentionné dans un commentaire"], "de": [f"{who} hat Sie in einem Kommentar erwähnt"],
                    "es": [f"{who} te ha mencionado en un comentario"], "it": [f"{who} ti ha menzionato in un commento"]},
        "follow": {"en": [f"{who} followed you", f"{who} is now following you", f"You have a new follower: {who}"],
                   "fr": [f"{who} vous suit désormais", f"Nouvel abonné : {who}"], "de": [f"{who} folgt Ihnen jetzt", f"Neuer Follower: {who}"],
                   "es": [f"{who} ha empezado a seguirte", f"Nuevo seguidor: {who}"], "it": [f"{who} ha iniziato a seguirti", f"Nuovo follower: {who}"]},
        "like": {"en": [f"{who} liked your post", f"{who} and {c.r.randint(2, 40)} others liked your photo", f"{who} favourited your post", f"{who} boosted your post", f"{who} gave you kudos"],
                 "fr": [f"{who} aime votre publication", f"{who} et {c.r.randint(2, 40)} autres personnes aiment votre photo"],
                 "de": [f"{who} gefällt Ihr Beitrag", f"{who} und {c.r.randint(2, 40)} weitere mögen Ihr Foto"],
                 "es": [f"A {who} le gusta tu publicación", f"A {who} y {c.r.randint(2, 40)} personas más les gusta tu foto"],
                 "it": [f"A {who} piace il tuo post", f"A {who} e altre {c.r.randint(2, 40)} persone piace la tua foto"]},
        "comment": {"en": [f"{who} commented on your post", f"{who} replied to your comment", f"New comment from {who}"],
                    "fr": [f"{who} a commenté votre publication", f"{who} a répondu à votre commentaire"], "de": [f"{who} hat Ihren Beitrag kommentiert"],
                    "es": [f"{who} ha comentado tu publicación"], "it": [f"{who} ha commentato il tuo post"]},
        "tag": {"en": [f"{who} tagged you in a photo", f"{who} tagged you in a post"], "fr": [f"{who} vous a identifié sur une photo"],
                "de": [f"{who} hat Sie auf einem Foto markiert"], "es": [f"{who} te ha etiquetado en una foto"], "it": [f"{who} ti ha taggato in una foto"]},
        "birthday": {"en": [f"Today is {who}'s birthday", f"Wish {who} a happy birthday", f"{who} has a birthday today"],
                     "fr": [f"C'est l'anniversaire de {who} aujourd'hui"], "de": [f"{who} hat heute Geburtstag"], "es": [f"Hoy es el cumpleaños de {who}"],
                     "it": [f"Oggi è il compleanno di {who}"]},
        "group": {"en": [f"{who} posted in {c.pick(['Berlin Rust Meetup', 'SRE Europe', 'Home Cooks', 'Trail Runners'])}", f"New post in your group from {who}"],
                  "fr": [f"{who} a publié dans le groupe {c.pick(['Randonnée Lyon', 'DevOps France'])}"], "de": [f"{who} hat in der Gruppe {c.pick(['Laufen Hamburg', 'Kubernetes DACH'])} gepostet"],
                  "es": [f"{who} ha publicado en el grupo {c.pick(['Senderismo Madrid', 'Python España'])}"], "it": [f"{who} ha pubblicato nel gruppo {c.pick(['Trekking Milano', 'Golang Italia'])}"]},
        "rsvp": {"en": [f"{who} RSVPed to {c.pick(['Rust Night', 'Hack Evening', 'Sunday ride'])}", f"{who} is going to your event", f"New RSVP: {who}"],
                 "fr": [f"{who} participera à votre événement"], "de": [f"{who} nimmt an Ihrer Veranstaltung teil"],
                 "es": [f"{who} asistirá a tu evento"], "it": [f"{who} parteciperà al tuo evento"]},
        "endorse": {"en": [f"{who} endorsed you for Kubernetes", f"{who} recommended you", f"{who} wrote you a recommendation"],
                    "fr": [f"{who} a recommandé vos compétences"], "de": [f"{who} hat Ihre Kenntnisse bestätigt"], "es": [f"{who} ha validado tus aptitudes"],
                    "it": [f"{who} ha confermato le tue competenze"]},
        "views": {"en": [f"{c.r.randint(3, 60)} people viewed your profile", f"{who} viewed your profile", f"You appeared in {c.r.randint(5, 90)} searches this week"],
                  "fr": [f"{c.r.randint(3, 60)} personnes ont consulté votre profil"], "de": [f"{c.r.randint(3, 60)} Personen haben Ihr Profil besucht"],
                  "es": [f"{c.r.randint(3, 60)} personas han visto tu perfil"], "it": [f"{c.r.randint(3, 60)} persone hanno visitato il tuo profilo"]},
        "share": {"en": [f"{who} shared your post", f"{who} reposted your update", f"{who} retweeted you", f"{who} quoted your post"],
                  "fr": [f"{who} a partagé votre publication"], "de": [f"{who} hat Ihren Beitrag geteilt"], "es": [f"{who} ha compartido tu publicación"],
                  "it": [f"{who} ha condiviso il tuo post"]},
        "accepted": {"en": [f"{who} accepted your invitation", f"You and {who} are now connected", f"{who} is now your friend"],
                     "fr": [f"{who} a accepté votre invitation"], "de": [f"{who} hat Ihre Einladung angenommen"], "es": [f"{who} ha aceptado tu invitación"],
                     "it": [f"{who} ha accettato il tuo invito"]},
        "invite": {"en": [f"{who} invited you to join {c.pick(['SRE Europe', 'Rust Berlin', 'the alumni group'])}", f"{who} invited you to like a page",
                          f"{who} invited you to an event"],
                   "fr": [f"{who} vous invite à rejoindre un groupe"], "de": [f"{who} hat Sie in eine Gruppe eingeladen"], "es": [f"{who} te ha invitado a unirte a un grupo"],
                   "it": [f"{who} ti ha invitato in un gruppo"]},
        "memory": {"en": [f"You have memories with {who} to look back on", f"{c.r.randint(2, 9)} years ago today"],
                   "fr": [f"Vous avez des souvenirs avec {who}"], "de": [f"Erinnerungen mit {who}"], "es": [f"Tienes recuerdos con {who}"],
                   "it": [f"Hai dei ricordi con {who}"]},
        "reaction": {"en": [f"{who} reacted to your comment", f"{who} replied to you", f"{who} and {c.r.randint(2, 20)} others reacted to your photo", f"{who} upvoted your answer"],
                     "fr": [f"{who} a réagi à votre commentaire"], "de": [f"{who} hat auf Ihren Kommentar reagiert"], "es": [f"{who} ha reaccionado a tu comentario"],
                     "it": [f"{who} ha reagito al tuo commento"]},
    }
    subj = c.pick(T[ev].get(c.lang, T[ev]["en"]))
    if c.r.random() < 0.3:
        subj = f"{net}: {subj}"
    view = L(c, {"en": ["View profile", "Reply", "See post", "View on " + net], "fr": ["Voir le profil", "Répondre", "Voir la publication"],
                 "de": ["Profil ansehen", "Antworten", "Beitrag ansehen"], "es": ["Ver perfil", "Responder", "Ver publicación"],
                 "it": ["Vedi profilo", "Rispondi", "Vedi post"]})
    extra = c.pick(["", f"\"{c.pick(['Congrats on the new role!', 'Great talk yesterday', 'Félicitations !', 'Tolles Foto!', '¡Qué bonito!', 'Bellissimo!'])}\"\n",
                    f"{who} · {c.pick(['Site Reliability Engineer', 'Product Manager', 'Designer', 'Ingénieure', 'Entwickler'])}\n"])
    settings = L(c, {"en": f"You are receiving notification emails from {net}. Change your notification settings.",
                     "fr": f"Vous recevez des notifications de {net}. Modifier vos préférences.", "de": f"Sie erhalten Benachrichtigungen von {net}. Einstellungen ändern.",
                     "es": f"Recibes notificaciones de {net}. Cambia tu configuración.", "it": f"Ricevi notifiche da {net}. Modifica le impostazioni."})
    return dict(subject=subj, text=f"{subj}\n{extra}\n{view}: https://{s['domain']}/n/{c.num()}\n\n{settings}\n", html=c.r.random() < 0.8, bulk=c.r.random() < 0.7,
                auto=c.r.random() < 0.2)

# ---------------------------------------------------------------- senders

KINDS = {
    "approval": ("Need-Action", k_approval), "invoice_due": ("Need-Action", k_invoice_due), "renewal": ("Need-Action", k_renewal),
    "direct_request": ("Need-Action", k_direct_request), "meeting": ("Need-Action", k_meeting), "signature": ("Need-Action", k_signature),
    "moderation": ("Need-Action", k_moderation), "review_request": ("Need-Action", k_review_request), "action_items": ("Need-Action", k_action_items),
    "access_review": ("Need-Action", k_access_review),
    "cron": ("FYI", k_cron), "backup": ("FYI", k_backup), "deploy": ("FYI", k_deploy), "bounce": ("FYI", k_bounce), "alert": ("FYI", k_alert),
    "error_tracker": ("FYI", k_error_tracker), "vcs": ("FYI", k_vcs), "jenkins": ("FYI", k_jenkins), "tracker": ("FYI", k_tracker),
    "cloud_notice": ("FYI", k_cloud_notice), "advisory": ("FYI", k_advisory), "receipt": ("FYI", k_receipt), "shipping": ("FYI", k_shipping),
    "signin": ("FYI", k_signin), "autoreply": ("FYI", k_autoreply), "personal_note": ("FYI", k_personal_note), "list_post": ("FYI", k_list_post),
    "newsletter": ("Newsletter", k_newsletter), "release_notes": ("Newsletter", k_release_notes), "rss": ("Newsletter", k_rss),
    "announce": ("Newsletter", k_announce), "community_digest": ("Newsletter", k_community_digest),
    "sale": ("Promotional", k_sale), "upsell": ("Promotional", k_upsell), "webinar": ("Promotional", k_webinar), "launch": ("Promotional", k_launch),
    "sweepstakes": ("Promotional", k_sweepstakes), "cold_outreach": ("Promotional", k_cold_outreach), "old_promo": ("Promotional", k_old_promo),
    "winback": ("Promotional", k_winback),
    "social": ("Social", k_social),
}

# (org, domain, from local part, tool, header profile, languages, kinds, years)
ORGS = [
    # ops tooling
    ("ServiceNow", "acme.service-now.com", "acme-itsm", "servicenow", "notify", "en de fr", "approval tracker", (2012, 2026)),
    ("ServiceNow", "kessler.service-now.com", "itsm", "servicenow", "notify", "de en", "approval tracker", (2014, 2026)),
    ("Jira", "norvel.atlassian.net", "jira", "jira", "notify", "en fr", "approval tracker", (2013, 2026)),
    ("Jira", "jira.bergmann-technik.de", "jira", "jira", "notify", "de", "tracker approval", (2009, 2020)),
    ("Jira", "issues.lumacorp.es", "jira", "jira", "notify", "es en", "tracker approval", (2012, 2026)),
    ("GitHub", "github.com", "notifications", "github", "notify", "en", "vcs review_request advisory", (2010, 2026)),
    ("GitLab", "gitlab.com", "gitlab", "gitlab", "notify", "en", "vcs review_request", (2015, 2026)),
    ("GitLab", "git.solvera.fr", "gitlab", "gitlab", "notify", "fr en", "vcs review_request approval", (2016, 2026)),
    ("Bitbucket", "bitbucket.org", "notifications-noreply", "bitbucket", "notify", "en", "vcs", (2012, 2024)),
    ("Jenkins", "ci.norvel.io", "jenkins", "jenkins", "notify", "en", "jenkins", (2011, 2024)),
    ("Jenkins", "build.kaltwerk.de", "jenkins", "jenkins", "notify", "en de", "jenkins", (2009, 2019)),
    ("PagerDuty", "pagerduty.com", "no-reply", "pagerduty", "notify", "en", "alert", (2012, 2026)),
    ("Opsgenie", "opsgenie.net", "opsgenie", "opsgenie", "notify", "en", "alert", (2015, 2026)),
    ("Alertmanager", "alerts.ostran.io", "alertmanager", "alertmanager", "notify", "en", "alert", (2017, 2026)),
    ("Nagios", "monitor.vielo-logistik.de", "nagios", "nagios", "notify", "en", "alert", (2004, 2018)),
    ("Zabbix", "zabbix.grupo-teral.es", "zabbix", "zabbix", "notify", "en es", "alert", (2008, 2022)),
    ("Datadog", "dtdg.co", "alert", "datadog", "esp-sendgrid", "en", "alert", (2014, 2026)),
    ("Grafana", "grafana.mintbox.io", "grafana", "grafana", "notify", "en", "alert", (2018, 2026)),
    ("UptimeRobot", "uptimerobot.com", "alert", "uptime", "esp-ses", "en", "alert", (2013, 2026)),
    ("New Relic", "newrelic.com", "alerts", "newrelic", "esp-sendgrid", "en", "alert", (2013, 2026)),
    ("Sentry", "sentry.io", "noreply", "sentry", "esp-mailgun", "en", "error_tracker", (2013, 2026)),
    ("Rollbar", "rollbar.com", "notifications", "rollbar", "esp-sendgrid", "en", "error_tracker", (2014, 2024)),
    ("Bugsnag", "bugsnag.com", "alerts", "bugsnag", "esp-ses", "en", "error_tracker", (2014, 2024)),
    ("Honeybadger", "honeybadger.io", "notifications", "hb", "esp-postmark", "en", "error_tracker", (2015, 2026)),
    ("AWS", "aws.amazon.com", "no-reply-aws", "aws", "esp-ses", "en fr de es it", "cloud_notice invoice_due", (2010, 2026)),
    ("Google Cloud", "cloud.google.com", "CloudPlatform-noreply", "gcp", "notify", "en fr de es it", "cloud_notice renewal", (2014, 2026)),
    ("Azure", "microsoft.com", "azure-noreply", "azure", "notify", "en de fr es it", "cloud_notice access_review", (2013, 2026)),
    ("Hetzner", "hetzner.com", "info", "hetzner", "notify", "de en", "invoice_due cloud_notice", (2008, 2026)),
    ("OVHcloud", "ovh.com", "support", "ovh", "notify", "fr es it", "invoice_due renewal cloud_notice", (2006, 2026)),
    ("DigitalOcean", "digitalocean.com", "support", "do", "esp-sendgrid", "en", "invoice_due cloud_notice upsell", (2013, 2026)),
    ("Heroku", "heroku.com", "bot", "heroku", "notify", "en", "deploy", (2011, 2022)),
    ("Vercel", "vercel.com", "notifications", "vercel", "esp-ses", "en", "deploy upsell", (2020, 2026)),
    ("ArgoCD", "argocd.ostran.io", "argocd", "argo", "notify", "en", "deploy approval", (2019, 2026)),
    ("Okta", "okta.com", "noreply", "okta", "notify", "en fr de", "approval signin access_review", (2014, 2026)),
    ("SAP Concur", "concursolutions.com", "autonotification", "concur", "notify", "en fr de es it", "approval", (2010, 2026)),
    ("Workday", "myworkday.com", "workday", "workday", "notify", "en fr de es", "approval", (2014, 2026)),
    ("SAP Ariba", "ansmtp.ariba.com", "ordersender-prod", "ariba", "notify", "en de", "approval", (2010, 2024)),
    ("Debian", "lists.debian.org", "debian-security-announce", "debian", "announcelist", "en", "advisory", (2004, 2026)),
    ("Ubuntu", "lists.ubuntu.com", "ubuntu-security-announce", "ubuntu", "announcelist", "en", "advisory", (2008, 2026)),
    ("restic backups", "backup.kaltwerk.de", "backup", "restic", "notify", "en de", "backup", (2016, 2026)),
    ("Veeam", "veeam.grupo-teral.es", "veeam", "veeam", "notify", "en es", "backup", (2012, 2026)),
    ("Bacula", "bacula.mercier-conseil.fr", "bacula", "bacula", "notify", "fr en", "backup", (2005, 2016)),
    ("Let's Encrypt", "letsencrypt.org", "expiry", "le", "esp-mailgun", "en", "renewal", (2016, 2025)),
    ("Gandi", "gandi.net", "noreply", "gandi", "notify", "fr en", "renewal invoice_due", (2006, 2026)),
    ("Namecheap", "namecheap.com", "support", "namecheap", "esp-sendgrid", "en", "renewal sale", (2010, 2026)),
    ("DocuSign", "docusign.net", "dse", "docusign", "esp-sendgrid", "en fr de es it", "signature", (2010, 2026)),
    ("Yousign", "yousign.com", "noreply", "yousign", "esp-mailgun", "fr it", "signature", (2016, 2026)),
    ("Mailman", "lists.ostran.io", "mailman", "mailman", "notify", "en", "moderation", (2004, 2026)),
    ("Google Groups", "googlegroups.com", "noreply", "ggroups", "notify", "en", "moderation", (2008, 2026)),
    # SaaS / vendors / commerce
    ("Stripe", "stripe.com", "receipts", "stripe", "esp-ses", "en fr de es it", "receipt", (2012, 2026)),
    ("Paddle", "paddle.com", "help", "paddle", "esp-postmark", "en", "receipt invoice_due", (2015, 2026)),
    ("Ledgerly", "ledgerly.io", "billing", "ledgerly", "esp-postmark", "en fr", "invoice_due receipt upsell release_notes", (2018, 2026)),
    ("Quokka CRM", "quokkacrm.com", "hello", "quokka", "esp-mailchimp", "en es", "upsell webinar release_notes invoice_due", (2017, 2026)),
    ("Brightdesk", "brightdesk.io", "team", "brightdesk", "esp-sendgrid", "en de", "release_notes webinar upsell renewal", (2016, 2026)),
    ("Taskpilot", "taskpilot.app", "news", "taskpilot", "esp-customerio", "en fr", "release_notes launch upsell", (2019, 2026)),
    ("Slack", "slack.com", "feedback", "slack", "esp-sendgrid", "en fr de es it", "signin release_notes", (2015, 2026)),
    ("Dropbox", "dropbox.com", "no-reply", "dropbox", "esp-ses", "en fr de es it", "signin upsell renewal", (2010, 2026)),
    ("Zoom", "zoom.us", "no-reply", "zoom", "esp-sendgrid", "en fr de es it", "meeting receipt", (2016, 2026)),
    ("Amazon", "amazon.de", "versandbestaetigung", "amazon", "esp-ses", "de", "shipping receipt", (2004, 2026)),
    ("Amazon", "amazon.fr", "confirmation-commande", "amazon", "esp-ses", "fr", "shipping receipt", (2004, 2026)),
    ("Amazon", "amazon.es", "confirmar-envio", "amazon", "esp-ses", "es", "shipping receipt", (2011, 2026)),
    ("Zalando", "zalando.de", "info", "zalando", "esp-braze", "de fr it", "sale winback shipping", (2010, 2026)),
    ("DHL", "dhl.de", "noreply", "dhl", "notify", "de en", "shipping", (2006, 2026)),
    ("Correos", "correos.es", "notificaciones", "correos", "notify", "es", "shipping", (2012, 2026)),
    ("Poste Italiane", "posteitaliane.it", "noreply", "poste", "notify", "it", "shipping", (2012, 2026)),
    ("La Redoute", "laredoute.fr", "offres", "laredoute", "esp-brevo", "fr", "sale winback sweepstakes", (2008, 2026)),
    ("El Corte Verde", "elcorteverde.es", "ofertas", "ecv", "esp-brevo", "es", "sale sweepstakes launch", (2010, 2026)),
    ("Mediamarkt", "mediamarkt.de", "newsletter", "mm", "esp-braze", "de", "sale launch sweepstakes", (2009, 2026)),
    ("Unieuro", "unieuro.it", "promo", "unieuro", "esp-mailup", "it", "sale launch winback", (2012, 2026)),
    ("Fernwood Outdoor", "fernwood-outdoor.com", "deals", "fernwood", "esp-klaviyo", "en", "sale winback launch sweepstakes", (2016, 2026)),
    ("Helio Coffee", "heliocoffee.co.uk", "shop", "helio", "esp-shopify", "en", "sale winback receipt shipping", (2018, 2026)),
    ("Sparrow HR", "sparrowhr.com", "events", "sparrow", "esp-hubspot", "en de fr", "webinar upsell", (2017, 2026)),
    ("Orbit Analytics", "orbitanalytics.io", "marketing", "orbit", "esp-marketo", "en es it", "webinar launch upsell", (2015, 2026)),
    ("Booking", "booking.com", "email.campaign", "booking", "esp-sparkpost", "en fr de es it", "sale receipt", (2012, 2026)),
    ("Ryanfly", "ryanfly.com", "offers", "ryanfly", "esp-sendgrid", "en es it", "sale", (2012, 2026)),
    # newsletters
    ("The Pragmatic Ops", "pragmaticops.substack.com", "pragmaticops", "substack", "substack", "en", "newsletter", (2019, 2026)),
    ("Platform Weekly", "platformweekly.substack.com", "platformweekly", "substack", "substack", "en", "newsletter", (2020, 2026)),
    ("Le Journal du Cloud", "journalducloud.substack.com", "journalducloud", "substack", "substack", "fr", "newsletter", (2020, 2026)),
    ("Datenwoche", "datenwoche.substack.com", "datenwoche", "substack", "substack", "de", "newsletter", (2020, 2026)),
    ("Código Abierto", "codigoabierto.substack.com", "codigoabierto", "substack", "substack", "es", "newsletter", (2020, 2026)),
    ("Il Bit Quotidiano", "bitquotidiano.substack.com", "bitquotidiano", "substack", "substack", "it", "newsletter", (2021, 2026)),
    ("SRE Digest", "sredigest.com", "editor", "mailchimp", "esp-mailchimp", "en", "newsletter", (2016, 2026)),
    ("DevOps'ish", "devopsish.com", "chris", "mailchimp", "esp-mailchimp", "en", "newsletter", (2017, 2026)),
    ("Tech Morning", "techmorning.news", "brief", "buttondown", "esp-buttondown", "en", "newsletter", (2018, 2026)),
    ("Hacker Dispatch", "hackerdispatch.io", "daily", "ghost", "esp-mailgun", "en", "newsletter", (2019, 2026)),
    ("Le Monde Numérique", "lemondenumerique.fr", "lettre", "sarbacane", "esp-sarbacane", "fr", "newsletter", (2010, 2026)),
    ("Heise Update", "heise-update.de", "newsletter", "heise", "esp-custom", "de", "newsletter", (2006, 2026)),
    ("El Diario Tech", "eldiariotech.es", "boletin", "acumbamail", "esp-acumbamail", "es", "newsletter", (2014, 2026)),
    ("La Rassegna Digitale", "rassegnadigitale.it", "redazione", "mailup", "esp-mailup", "it", "newsletter", (2012, 2026)),
    ("Morning Wire", "morningwire.com", "newsletters", "sailthru", "esp-sailthru", "en", "newsletter", (2012, 2026)),
    ("Berliner Morgenpost Digital", "morgenlage.de", "morgenlage", "newsletter2go", "esp-newsletter2go", "de", "newsletter", (2015, 2026)),
    ("Zine Club", "zineclub.example.com", "hello", "convertkit", "esp-convertkit", "en", "newsletter rss", (2018, 2026)),
    ("Kernel Notes", "kernelnotes.net", "feed", "feedburner", "rss", "en", "rss", (2006, 2020)),
    ("Blog de Mathieu", "mathieu-blog.fr", "blog", "feedburner", "rss", "fr", "rss", (2007, 2019)),
    ("Technik-Blog", "technikblog.de", "feed", "blogtrottr", "rss", "de", "rss", (2010, 2024)),
    ("Bitácora", "bitacora.es", "rss", "feedrabbit", "rss", "es", "rss", (2009, 2024)),
    ("Rust Forum", "users.rust-forum.org", "forum", "discourse", "esp-discourse", "en", "community_digest", (2016, 2026)),
    ("Home Assistant Community", "community.home-assist.io", "noreply", "discourse", "esp-discourse", "en de", "community_digest", (2018, 2026)),
    ("Forum Linux FR", "forum.linux-fr.example.org", "forum", "discourse", "esp-discourse", "fr", "community_digest", (2015, 2026)),
    # announce lists (plain list software)
    ("Postfix", "postfix.org", "postfix-announce", "mailman", "announcelist", "en", "announce", (2004, 2026)),
    ("Apache", "apache.org", "announce", "ezmlm", "announcelist", "en", "announce", (2004, 2026)),
    ("Grafana OSS", "lists.grafana-oss.org", "grafana-announce", "mailman", "announcelist", "en", "announce", (2016, 2026)),
    ("Samba", "lists.samba.org", "samba-announce", "mailman", "announcelist", "en", "announce", (2004, 2024)),
    ("LibreOffice FR", "fr.libreoffice.org", "annonces", "mlmmj", "announcelist", "fr", "announce", (2011, 2026)),
    # social networks
    ("LinkedIn", "linkedin.com", "messages-noreply", "linkedin", "social", "en fr de es it", "social", (2008, 2026)),
    ("Facebook", "facebookmail.com", "notification", "facebook", "social", "en fr de es it", "social", (2008, 2026)),
    ("X", "x.com", "notify", "x", "social", "en fr es", "social", (2023, 2026)),
    ("Twitter", "twitter.com", "info", "twitter", "social", "en de it", "social", (2009, 2023)),
    ("Instagram", "mail.instagram.com", "no-reply", "instagram", "social", "en fr de es it", "social", (2013, 2026)),
    ("Mastodon", "fosstodon.org", "notifications", "mastodon", "social", "en", "social", (2018, 2026)),
    ("Mastodon", "chaos.social", "notifications", "mastodon", "social", "de en", "social", (2018, 2026)),
    ("Mastodon", "mamot.fr", "notifications", "mastodon", "social", "fr", "social", (2018, 2026)),
    ("Bluesky", "bsky.app", "noreply", "bluesky", "social", "en es", "social", (2023, 2026)),
    ("Reddit", "redditmail.com", "noreply", "reddit", "social", "en", "social", (2015, 2026)),
    ("Meetup", "meetup.com", "info", "meetup", "social", "en de es", "social", (2010, 2026)),
    ("Strava", "strava.com", "no-reply", "strava", "social", "en fr it", "social", (2014, 2026)),
    ("XING", "xing.com", "mailrobot", "xing", "social", "de", "social", (2008, 2024)),
    ("Viadeo", "viadeo.com", "notification", "viadeo", "social", "fr", "social", (2007, 2016)),
    ("Tuenti", "tuenti.com", "notificaciones", "tuenti", "social", "es", "social", (2007, 2014)),
    ("StudiVZ", "studivz.net", "noreply", "studivz", "social", "de", "social", (2006, 2012)),
    ("Orkut", "orkut.com", "noreply", "orkut", "social", "en es", "social", (2005, 2013)),
    ("MySpace", "myspace.com", "notification", "myspace", "social", "en", "social", (2005, 2011)),
    ("Goodreads", "goodreads.com", "no-reply", "goodreads", "social", "en", "social", (2010, 2026)),
    ("Pixelfed", "pixelfed.social", "notifications", "pixelfed", "social", "en it", "social", (2019, 2026)),
    ("Discord", "discord.com", "notifications", "discord", "social", "en fr de", "social", (2017, 2026)),
    ("Nextdoor", "nextdoor.com", "reply", "nextdoor", "social", "en es", "social", (2014, 2026)),
    ("Lemmy", "lemmy.world", "noreply", "lemmy", "social", "en de", "social", (2023, 2026)),
    ("Stadtforum", "forum.stadtteil-nord.de", "forum", "discourse", "social", "de", "social", (2016, 2026)),
]

# Mailing lists for discussion posts: (list name, list host, style, language, years)
LISTS = [
    ("postgres-general", "lists.postgres-users.org", "mailman", "en", (2004, 2026)),
    ("nginx-users", "nginx-lists.org", "mailman", "en", (2008, 2026)),
    ("debian-user-french", "lists.debian.org", "debianlist", "fr", (2004, 2026)),
    ("debian-user-german", "lists.debian.org", "debianlist", "de", (2004, 2026)),
    ("debian-user-spanish", "lists.debian.org", "debianlist", "es", (2004, 2026)),
    ("debian-italian", "lists.debian.org", "debianlist", "it", (2004, 2026)),
    ("golang-nuts", "googlegroups.com", "ggroups", "en", (2010, 2026)),
    ("elixir-lang-talk", "googlegroups.com", "ggroups", "en", (2013, 2022)),
    ("ansible-project", "googlegroups.com", "ggroups", "en", (2013, 2024)),
    ("python-it", "googlegroups.com", "ggroups", "it", (2010, 2024)),
    ("qmail", "list.cr.yp.to", "ezmlm", "en", (2004, 2010)),
    ("freebsd-questions", "freebsd-lists.org", "majordomo", "en", (2004, 2009)),
    ("linux-fr", "listes.linux-fr.org", "sympa", "fr", (2004, 2012)),
    ("suse-linux", "suse-lists.de", "majordomo", "de", (2004, 2010)),
    ("ubuntu-es", "lists.ubuntu.com", "mailman", "es", (2008, 2020)),
    ("ops-team", "lists.norvel.io", "mailman", "en", (2015, 2026)),
    ("infra-discuss", "lists.ostran.io", "mailman", "en", (2017, 2026)),
    ("sre-italia", "googlegroups.com", "ggroups", "it", (2016, 2026)),
    ("perl5-porters", "perl-lists.org", "ezmlm", "en", (2004, 2012)),
    ("outils-libres", "listes.framalibre.org", "sympa", "fr", (2012, 2026)),
]


def company_domain(r, lang):
    return r.choice(SYL) + r.choice(SYL) + ("-" + r.choice(SUFFIX[lang]) if r.random() < 0.5 else "") + r.choice(TLD[lang])


def make_people(r):
    """Organisations whose people write personal mail, requests and cold outreach."""
    people = []
    for lang, n in (("en", 40), ("fr", 20), ("de", 20), ("es", 18), ("it", 16)):
        for _ in range(n):
            people.append((company_domain(r, lang), lang))
    for lang, dom in (("en", "gmail.com"), ("fr", "orange.fr"), ("de", "web.de"), ("es", "hotmail.es"), ("it", "libero.it"),
                      ("en", "yahoo.com"), ("fr", "free.fr"), ("de", "gmx.de"), ("en", "outlook.com"), ("it", "tiscali.it")):
        people.append((dom, lang))
    return people

# ---------------------------------------------------------------- headers and MIME

ESP_HEADERS = {
    "mailchimp": lambda c: [("X-MC-User", c.pick("abcdef0123456789") * 12), ("X-Campaign", f"mailchimp{c.num()}.{c.num()}"), ("X-campaignid", f"mailchimp{c.num()}"),
                            ("Feedback-ID", f"{c.num()}:{c.num()}:us{c.r.randint(1, 21)}:mc")],
    "ses": lambda c: [("X-SES-Outgoing", f"2024.{c.num()}"), ("Feedback-ID", f"1.eu-west-1.{c.num()}=:AmazonSES")],
    "sendgrid": lambda c: [("X-SG-EID", hashlib.md5(str(c.num()).encode()).hexdigest()), ("X-SG-ID", hashlib.sha1(str(c.num()).encode()).hexdigest()[:20])],
    "mailgun": lambda c: [("X-Mailgun-Sid", hashlib.md5(str(c.num()).encode()).hexdigest()[:24]), ("X-Mailgun-Tag", c.pick(["digest", "alerts", "post"]))],
    "postmark": lambda c: [("X-PM-Message-Id", f"{c.num()}-{c.num()}"), ("X-PM-Tag", c.pick(["billing", "transactional", "product-updates"]))],
    "customerio": lambda c: [("X-Customerio-Delivery-Id", hashlib.md5(str(c.num()).encode()).hexdigest()[:20])],
    "braze": lambda c: [("X-Braze-Campaign", str(c.num())), ("Feedback-ID", f"{c.num()}:braze")],
    "brevo": lambda c: [("X-Mailin-EID", f"{c.num()}~{c.num()}"), ("X-sib-id", hashlib.md5(str(c.num()).encode()).hexdigest()[:16])],
    "mailup": lambda c: [("X-MailUp-Campaign", str(c.num())), ("X-Mailer", "MailUp")],
    "klaviyo": lambda c: [("X-Kmail-Relay", "klaviyo"), ("X-Klaviyo-Message", str(c.num()))],
    "shopify": lambda c: [("X-Shopify-Email-Campaign", str(c.num()))],
    "hubspot": lambda c: [("X-HS-Cid", hashlib.md5(str(c.num()).encode()).hexdigest()[:16]), ("X-Report-Abuse-To", "abuse@hubspot.com")],
    "marketo": lambda c: [("X-MarketoID", f"{c.num()}-ABC-{c.num(100, 999)}:{c.num()}"), ("X-Binding", "bulk")],
    "sparkpost": lambda c: [("X-MSFBL", hashlib.sha1(str(c.num()).encode()).hexdigest())],
    "sailthru": lambda c: [("X-Sailthru-Sent", str(c.num())), ("X-TM-ID", str(c.num()))],
    "convertkit": lambda c: [("X-CK-Broadcast", str(c.num()))],
    "buttondown": lambda c: [("X-Buttondown-Email", str(c.num()))],
    "acumbamail": lambda c: [("X-Mailer", "Acumbamail"), ("X-Campaign-Id", str(c.num()))],
    "sarbacane": lambda c: [("X-Mailer", "Sarbacane"), ("X-Sarbacane-Id", str(c.num()))],
    "newsletter2go": lambda c: [("X-Newsletter2Go-Id", str(c.num()))],
    "discourse": lambda c: [("X-Discourse-Post-Id", str(c.num())), ("X-Discourse-Topic-Id", str(c.num()))],
    "custom": lambda c: [("X-Mailer", "heise Newsletter-System"), ("X-Newsletter", "update")],
}
PERSON_AGENTS = ["Mozilla Thunderbird 115.3.1", "Apple Mail (2.3731)", "Microsoft Outlook 16.0", "Evolution 3.50", "Mutt/2.2.9",
                 "Roundcube Webmail/1.6", "K-9 Mail for Android", None, None, None]
OLD_AGENTS = ["Microsoft Outlook Express 6.00.2900.2180", "The Bat! (v3.51.10)", "Mozilla 4.79 [en] (Win98; U)", "AOL 9.0 for Windows",
              "Microsoft Office Outlook 11", "Pegasus Mail for Windows (4.41)", "Eudora 7.1"]
REPLY_PREFIX = {"en": "Re: ", "fr": "RE : ", "de": "AW: ", "es": "RE: ", "it": "R: "}
RECIPIENT_DOMAINS = ["ops.norvel.io", "ostran.io", "kaltwerk.de", "mercier-conseil.fr", "grupo-teral.es", "lumacorp.it"]


def html_of(text, c, s, rich):
    import html as h
    paras = []
    for block in text.split("\n\n"):
        lines = [h.escape(l) for l in block.split("\n")]
        out = []
        for l in lines:
            if "https://" in l:
                pre, _, url = l.partition("https://")
                url = url.split()[0] if url.split() else url
                out.append(f'{pre}<a href="https://{url}" style="color:#1a73e8">{pre.strip(": ") or url}</a>')
            else:
                out.append(l)
        paras.append("<p>" + "<br>\n".join(out) + "</p>")
    style = "<style>body{font-family:Arial,sans-serif} .btn{background:#ff5a00;color:#fff;padding:12px 24px} @media(max-width:600px){.c{width:100%!important}}</style>" if rich else ""
    pixel = f'<img src="https://t.{s["domain"]}/o/{c.num()}.gif" width="1" height="1" alt="">' if rich else ""
    body = "\n".join(paras)
    if rich:
        body = f'<table class="c" width="600" align="center" cellpadding="0" cellspacing="0"><tr><td>{body}</td></tr></table>'
    return f"<!DOCTYPE html><html><head><meta charset=\"utf-8\">{style}</head><body>{body}{pixel}</body></html>"


def build(c, s, kind, info, year, recipient, rng):
    m = EmailMessage(policy=POLICY)
    profile = s["profile"]
    frm = info.get("from_override") or email.utils.formataddr((s["name"], s["addr"]))
    m["From"] = frm
    to = recipient
    subject = info["subject"]
    reply = info.get("reply")
    if profile in ("mailman", "ggroups", "debianlist", "ezmlm", "majordomo", "sympa"):
        lst = s["list"]
        laddr = s["list_addr"]
        to = laddr
        if rng.random() < 0.6 and profile != "ggroups":
            subject = f"[{lst}] {subject}" if not subject.startswith("Re: ") else f"Re: [{lst}] {subject[4:]}"
    elif profile == "announcelist":
        to = s.get("list_addr") or f"{s['addr']}"
    elif profile == "oldpromo" and rng.random() < 0.6:
        to = "undisclosed-recipients:;"
    elif info.get("bulk") and rng.random() < 0.15:
        to = frm
    if reply and not subject.lower().startswith(("re:", "aw:", "r:", "re :")):
        subject = REPLY_PREFIX.get(c.lang, "Re: ") + subject
    m["To"] = to
    if info.get("person") and rng.random() < 0.25 and profile == "person":
        m["Cc"] = email.utils.formataddr((c.name(), f"{c.pick(FIRST['en']).lower()}@{s['domain']}"))
    m["Subject"] = subject
    date = c.date
    m["Date"] = email.utils.format_datetime(date)
    mid_seed = f"{s['addr']}{c.num()}{date}"
    m["Message-ID"] = f"<{hashlib.sha1(mid_seed.encode()).hexdigest()[:20]}@{s['domain']}>"
    if reply or subject.startswith(("Re:", "AW:", "R:", "RE")):
        parent = f"<{hashlib.md5(str(c.num()).encode()).hexdigest()[:16]}@{c.pick([s['domain'], 'mail.gmail.com', recipient.split('@')[-1]])}>"
        m["In-Reply-To"] = parent
        m["References"] = parent
    # profile headers
    tool = s["tool"]
    auto = info.get("auto")
    if profile == "notify":
        if auto or rng.random() < 0.5:
            m["Auto-Submitted"] = "auto-generated"
        if rng.random() < 0.5:
            m["X-Auto-Response-Suppress"] = "All"
        extra = {"github": [("X-GitHub-Reason", "review_requested" if kind == "review_request" else c.pick(["subscribed", "mention", "author", "ci_activity"])),
                            ("List-ID", f"{s['org'].lower()}/{c.pick(REPOS)} <{c.pick(REPOS)}.{s['org'].lower()}.github.com>"),
                            ("List-Unsubscribe", f"<mailto:unsub+{c.num()}@reply.github.com>")],
                 "gitlab": [("X-GitLab-Project", c.pick(REPOS)), ("X-GitLab-NotificationReason", "review_requested" if kind == "review_request" else c.pick(["", "mentioned", "own_activity"])),
                            ("List-Id", f"{c.pick(REPOS)} <{c.num()}.{s['domain']}>")],
                 "jira": [("X-JIRA-FingerPrint", hashlib.md5(str(c.num()).encode()).hexdigest()), ("Precedence", "bulk")],
                 "servicenow": [("X-ServiceNow-Generated", "true"), ("X-ServiceNow-Source", "Notification")],
                 "jenkins": [("X-Jenkins-Job", "build"), ("X-Jenkins-Result", "FAILURE")],
                 "pagerduty": [("X-PagerDuty-Incident", str(c.num()))],
                 "opsgenie": [("X-Opsgenie-Alert-Id", hashlib.md5(str(c.num()).encode()).hexdigest())],
                 "mailman": [("X-Mailman-Version", "2.1.39"), ("Precedence", "bulk")],
                 "ggroups": [("X-Google-Group-Id", str(c.num()))],
                 }.get(tool, [("X-Mailer", c.pick([f"{s['org']} Notifications", "PHPMailer 6.8.0", "cron", "python-requests/2.31"]))])
        for k, v in extra:
            if v:
                m[k] = v
    elif profile.startswith("esp-") or profile in ("substack", "social", "rss"):
        esp = profile[4:] if profile.startswith("esp-") else {"substack": "mailgun", "social": c.pick(["ses", "sendgrid", "sparkpost", "custom_social"]),
                                                              "rss": c.pick(["mailgun", "none", "none"])}[profile]
        for k, v in ESP_HEADERS.get(esp, lambda c: [])(c):
            m[k] = v
        unsub = info.get("bulk") or kind in ("social",) or rng.random() < 0.35
        if unsub and (year >= 2009 or rng.random() < 0.3):
            m["List-Unsubscribe"] = f"<https://{s['domain']}/unsubscribe/{c.num()}>, <mailto:unsubscribe-{c.num()}@{s['domain']}>"
            if year >= 2019 and rng.random() < 0.8:
                m["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
        if profile == "substack":
            m["List-Id"] = f"<{s['list_id']}>"
            m["List-URL"] = f"<https://{s['list_id']}/>"
        if info.get("bulk") and rng.random() < 0.3:
            m["Precedence"] = "bulk"
        if profile == "social":
            hdr = {"linkedin": "X-LinkedIn-Class", "facebook": "X-Facebook-Notify", "instagram": "X-Instagram-Notification", "mastodon": "X-Mastodon-Notification",
                   "meetup": "X-Meetup-Type", "reddit": "X-Reddit-Notification"}.get(tool, "X-Notification-Type")
            m[hdr] = c.pick(["INVITE", "mention", "follow", "like", "message"])
        if auto:
            m["Auto-Submitted"] = "auto-generated"
        if profile == "rss":
            m["X-Mailer"] = c.pick(["FeedBurner", "Blogtrottr", "rss2email 3.14", "Feedrabbit"])
    elif profile in ("mailman", "ggroups", "debianlist"):
        lst, host = s["list"], s["list_host"]
        lid = f"{lst}.{host}"
        m["List-Id"] = f"{c.pick(['', lst.capitalize() + ' mailing list '])}<{lid}>"
        m["List-Post"] = f"<mailto:{s['list_addr']}>" if profile != "ggroups" else f"<https://groups.google.com/group/{lst}/post>, <mailto:{s['list_addr']}>"
        m["List-Unsubscribe"] = f"<mailto:{lst}-request@{host}?subject=unsubscribe>"
        m["List-Archive"] = f"<https://{host}/archives/{lst}>"
        m["Precedence"] = c.pick(["list", "list", "bulk"])
        if profile == "mailman":
            m["X-Mailman-Version"] = c.pick(["2.1.15", "2.1.39", "3.3.8"])
            m["Sender"] = f"{lst}-bounces@{host}"
        elif profile == "ggroups":
            m["Mailing-list"] = f"list {s['list_addr']}; contact {lst}+owners@googlegroups.com"
            m["X-Google-Group-Id"] = str(c.num())
        else:
            m["X-Mailing-List"] = f"<{s['list_addr']}> archive/latest/{c.num()}"
            m["Resent-From"] = s["list_addr"]
        if agent := c.pick(PERSON_AGENTS):
            m["User-Agent" if "Thunderbird" in agent or "Mutt" in agent else "X-Mailer"] = agent
    elif profile in ("ezmlm", "majordomo", "sympa"):
        lst, host = s["list"], s["list_host"]
        if profile == "ezmlm":
            m["Mailing-List"] = f"contact {lst}-help@{host}; run by ezmlm"
            m["Delivered-To"] = f"mailing list {s['list_addr']}"
        elif profile == "majordomo":
            m["Sender"] = f"owner-{lst}@{host}"
            m["X-Loop"] = s["list_addr"]
        else:
            m["X-Sequence"] = str(c.num(100, 9999))
            m["Errors-To"] = f"{lst}-owner@{host}"
        if rng.random() < 0.5:
            m["Precedence"] = "bulk"
        m["X-Mailer"] = c.pick(OLD_AGENTS + ["Mutt/1.4.2.1i", "Pine 4.64"])
    elif profile == "announcelist":
        lst, host = s["list"], s["domain"]
        m["List-Id"] = f"<{lst}.{host}>"
        m["List-Unsubscribe"] = f"<mailto:{lst}-leave@{host}>"
        m["List-Archive"] = f"<https://{host}/pipermail/{lst}/>"
        if rng.random() < 0.4:
            m["List-Post"] = "NO"
        m["Precedence"] = c.pick(["bulk", "list"])
        m["X-Mailman-Version"] = "2.1.39"
    elif profile == "person":
        if agent := c.pick(PERSON_AGENTS):
            m["User-Agent" if rng.random() < 0.4 else "X-Mailer"] = agent
    elif profile == "oldpromo":
        m["X-Mailer"] = c.pick(OLD_AGENTS)
        if rng.random() < 0.5:
            m["X-Priority"] = "1 (Highest)"
        if rng.random() < 0.4:
            m["Reply-To"] = f"sales@{c.pick(['offers-now.biz', 'best-deals.info', s['domain']])}"
    if info.get("autoreply"):
        m["Auto-Submitted"] = "auto-replied"
        m["X-Autoreply"] = "yes"
    # body
    text = info["text"].rstrip() + "\n"
    charset = "utf-8"
    if year < 2012 and c.lang in ("fr", "de", "es", "it") and rng.random() < 0.7:
        try:
            text.encode("iso-8859-1")
            charset = "iso-8859-1"
        except UnicodeEncodeError:
            pass
    cte = c.pick(["quoted-printable", "base64", "8bit"]) if charset == "utf-8" else c.pick(["quoted-printable", "8bit"])
    want_html = info.get("html") and not info.get("plain")
    if info.get("calendar"):
        m.set_content(text, charset=charset, cte=cte)
        ics = (f"BEGIN:VCALENDAR\nMETHOD:REQUEST\nBEGIN:VEVENT\nUID:{c.num()}@{s['domain']}\nSUMMARY:{info['subject']}\n"
               f"DTSTART:{date + timedelta(days=3):%Y%m%dT%H%M%SZ}\nORGANIZER:mailto:{s['addr']}\nATTENDEE;RSVP=TRUE:mailto:{recipient}\nEND:VEVENT\nEND:VCALENDAR\n")
        m.add_alternative(ics, subtype="calendar", params={"method": "REQUEST"})
    elif want_html:
        html = html_of(text, c, s, rich=info.get("bulk") or rng.random() < 0.5)
        if rng.random() < 0.2:
            m.set_content(html, subtype="html", charset="utf-8", cte=c.pick(["quoted-printable", "base64"]))
        else:
            m.set_content(text, charset=charset, cte=cte)
            m.add_alternative(html, subtype="html", charset="utf-8", cte=c.pick(["quoted-printable", "base64"]))
    else:
        m.set_content(text, charset=charset, cte=cte)
    if year >= 2012 and rng.random() < 0.5:
        m["DKIM-Signature"] = f"v=1; a=rsa-sha256; d={s['domain']}; s=s1; h=from:to:subject:date; bh={hashlib.sha1(text.encode()).hexdigest()[:20]}="
    # The mailbox's own address, as the delivering server records it (Postfix, Dovecot and
    # Gmail all write it): the categoriser's default owner address. No random draw, so the
    # rest of the corpus is the same with or without it.
    m["Delivered-To"] = recipient
    return m

# ---------------------------------------------------------------- main

QUOTA = {"Need-Action": 380, "FYI": 500, "Newsletter": 330, "Promotional": 330, "Social": 300}
KIND_WEIGHT = {"newsletter": 4, "rss": 1.5, "list_post": 4, "alert": 2, "vcs": 2, "personal_note": 2, "approval": 2, "direct_request": 2,
               "sale": 2, "old_promo": 2, "cold_outreach": 1.5, "tracker": 1.5, "announce": 0.7, "community_digest": 0.6}
PERSON_KINDS = {"direct_request", "meeting", "action_items", "personal_note", "autoreply", "cold_outreach"}
FOLDER = {"Need-Action": "need-action", "FYI": "fyi", "Newsletter": "newsletter", "Promotional": "promotional", "Social": "social"}


def org_senders():
    out = []
    for org, domain, local, tool, profile, langs, kinds, years in ORGS:
        addr_domain = "substack.com" if profile == "substack" else domain
        s = dict(org=org, name=org, domain=domain, addr=f"{local}@{addr_domain}", tool=tool, profile=profile, langs=langs.split(),
                 kinds=kinds.split(), years=years)
        if profile == "substack":
            s["list_id"] = domain
            s["nl_style"] = "essay"
        if profile == "announcelist":
            s["list"] = local
            s["list_addr"] = f"{local}@{domain}"
        if tool in ("mailchimp", "buttondown", "ghost"):
            s["nl_style"] = None
        out.append(s)
    return out


def person_sender(rng, people, lang=None):
    dom, plang = rng.choice([p for p in people if lang is None or p[1] == lang] or people)
    first, last = rng.choice(FIRST[plang]), rng.choice(LAST[plang])
    local = rng.choice([f"{first}.{last}", f"{first[0]}{last}", first, f"{first}{rng.randint(1, 99)}"]).lower()
    local = local.encode("ascii", "ignore").decode() or "user"
    return dict(org=dom, name=f"{first} {last}", domain=dom, addr=f"{local}@{dom}", tool="person", profile="person", langs=[plang],
                kinds=[], years=(2004, 2026))


def list_sender(rng, people):
    lst, host, style, lang, years = rng.choice(LISTS)
    poster = person_sender(rng, people, lang)
    addr = f"{lst}@{host}"
    s = dict(poster, profile=style, list=lst, list_host=host, list_addr=addr, years=years, langs=[lang])
    if style == "ggroups" and rng.random() < 0.7:
        # Google Groups rewrites From for DMARC: "'Name' via list" <list@googlegroups.com>
        s["name"] = f"'{poster['name']}' via {lst}"
        s["addr"] = addr
        s["domain"] = host
    return s


def shop_sender(rng):
    lang = rng.choice(LANGS)
    dom = company_domain(rng, lang)
    return dict(org=dom, name=rng.choice(["Sales Team", "Customer Service", "Special Offers", "Info", dom.split(".")[0].capitalize()]), domain=dom,
                addr=f"{rng.choice(['sales', 'info', 'offers', 'promo', 'news'])}@{dom}", tool="oldpromo", profile="oldpromo", langs=[lang],
                kinds=[], years=(2003, 2013))


def outreach_sender(rng, people):
    s = person_sender(rng, people)
    s["org"] = s["domain"].split(".")[0].capitalize()
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=18)
    ap.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "..", "services", "digest-web", "fixtures", "corpus"))
    args = ap.parse_args()
    rng = random.Random(args.seed)
    random.seed(args.seed)  # MIME boundaries come from the module-level generator
    people = make_people(rng)
    orgs = org_senders()
    shops = [shop_sender(rng) for _ in range(45)]
    # people who send several messages (a sender is an address; the split groups by domain)
    persons = [person_sender(rng, people) for _ in range(160)]
    outreach = [outreach_sender(rng, people) for _ in range(40)]
    infra = []
    for dom, lang in rng.sample([p for p in people if p[0].count(".") == 1 and "mail" not in p[0]], 40):
        infra.append(dict(org=dom, name="root", domain=dom, addr=f"root@{dom}", tool="cron", profile="notify", langs=[lang], kinds=[], years=(2004, 2026)))
    by_kind = {}
    for s in orgs:
        for k in s["kinds"]:
            by_kind.setdefault(k, []).append(s)
    os.makedirs(args.out, exist_ok=True)
    labels = []
    boxes = {cat: [] for cat in QUOTA}
    seen_ids = set()
    for cat, quota in QUOTA.items():
        kinds = [k for k, (c, _) in KINDS.items() if c == cat]
        for i in range(quota):
            kind = kinds[i % len(kinds)] if i < len(kinds) * 2 else rng.choices(kinds, [KIND_WEIGHT.get(k, 1.0) for k in kinds])[0]
            if kind in PERSON_KINDS:
                s = rng.choice(outreach if kind == "cold_outreach" else persons)
            elif kind == "list_post":
                s = list_sender(rng, people)
            elif kind == "old_promo":
                s = rng.choice(shops)
            elif kind in ("cron", "bounce"):
                s = rng.choice(infra)
            else:
                s = rng.choice(by_kind[kind])
            lang = rng.choice(s["langs"])
            lo, hi = s["years"]
            year = rng.randint(lo, hi)
            date = datetime(year, rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59),
                            tzinfo=timezone(timedelta(hours=rng.choice([0, 1, 2, -5, -8]))))
            c = Ctx(rng, lang, date)
            info = KINDS[kind][1](c, s)
            recipient = f"{c.me.lower().encode('ascii', 'ignore').decode() or 'me'}@{rng.choice(RECIPIENT_DOMAINS)}"
            msg = build(c, s, kind, info, year, recipient, rng)
            mid = msg["Message-ID"].strip("<>")
            if mid in seen_ids:
                continue
            seen_ids.add(mid)
            raw = msg.as_bytes(policy=POLICY)
            sender_addr = email.utils.parseaddr(msg["From"])[1].lower()
            boxes[cat].append((sender_addr, date, raw))
            labels.append((mid, cat, sender_addr.rsplit("@", 1)[-1], kind, lang, str(year)))
    for cat, msgs in boxes.items():
        with open(os.path.join(args.out, f"{FOLDER[cat]}.mbox"), "wb") as f:
            for sender, date, raw in msgs:
                f.write(f"From {sender or 'MAILER-DAEMON'} {date.astimezone(timezone.utc):%a %b %d %H:%M:%S %Y}\n".encode())
                for line in raw.split(b"\n"):
                    # mboxrd: quote From_ lines (and already-quoted ones) inside the message
                    if line.lstrip(b">").startswith(b"From "):
                        line = b">" + line
                    f.write(line + b"\n")
                f.write(b"\n")
    with open(os.path.join(args.out, "labels.tsv"), "w", encoding="utf-8") as f:
        f.write("message_id\tcategory\tsender_domain\tkind\tlanguage\tyear\n")
        for row in labels:
            f.write("\t".join(row) + "\n")
    print(f"{len(labels)} messages, {len({l[2] for l in labels})} sender domains, in {os.path.normpath(args.out)}")


if __name__ == "__main__":
    main()
