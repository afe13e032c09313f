/*
 * A stand-in for Stripe.js (https://js.stripe.com/endive/stripe.js) for tests and the offline demo,
 * because js.stripe.com cannot be reached from where they run. NOT Stripe: no money moves.
 *
 * It implements the part of Stripe.js the booking calendar calls: Stripe(publishableKey,
 * { stripeAccount }), stripe.elements({ clientSecret, appearance, locale }), elements.create("payment"),
 * element.mount/on/destroy, elements.submit() and stripe.confirmPayment({ elements, redirect:
 * "if_required" }). The card form is plain fields instead of Stripe's iframe; confirming sends the
 * raw card to the Stripe stand-in's POST /v1/payment_intents/:id/confirm with the publishable key,
 * the client secret and the connected account, as Stripe.js does, so the stand-in decides approve
 * or decline by Stripe's test cards (4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined).
 */
(function () {
  var API = "__STANDIN_API__";

  function encode(params, prefix, out) {
    Object.keys(params).forEach(function (key) {
      var value = params[key];
      var name = prefix ? prefix + "[" + key + "]" : key;
      if (value === undefined || value === null) return;
      if (typeof value === "object") encode(value, name, out);
      else out.push(encodeURIComponent(name) + "=" + encodeURIComponent(String(value)));
    });
    return out;
  }

  // The Payment Element's looks from elements({ appearance }): its "night" theme (Stripe's dark
  // preset) or the light default, with the borderRadius and colorPrimary variables.
  function looksOf(appearance) {
    var night = !!appearance && appearance.theme === "night";
    var variables = (appearance && appearance.variables) || {};
    return {
      background: night ? "#30313d" : "#ffffff",
      text: night ? "#ffffff" : "#0f172a",
      border: night ? "#424353" : "#94a3b8",
      radius: variables.borderRadius || "6px",
      primary: variables.colorPrimary || "#0570de",
    };
  }

  function field(container, id, label, attrs, looks) {
    var wrap = document.createElement("div");
    wrap.style.cssText = "display:grid;gap:4px;margin-bottom:10px";
    var l = document.createElement("label");
    l.htmlFor = id;
    l.textContent = label;
    l.style.cssText = "font-weight:600;font-size:0.9rem";
    var input = document.createElement("input");
    input.id = id;
    Object.keys(attrs).forEach(function (k) {
      input.setAttribute(k, attrs[k]);
    });
    input.style.cssText =
      "font:inherit;padding:8px;border:1px solid " +
      looks.border +
      ";border-radius:" +
      looks.radius +
      ";background:" +
      looks.background +
      ";color:" +
      looks.text +
      ";outline-color:" +
      looks.primary;
    wrap.appendChild(l);
    wrap.appendChild(input);
    container.appendChild(wrap);
    return input;
  }

  var counter = 0;

  function PaymentElement(appearance, locale) {
    this.looks = looksOf(appearance);
    this.locale = locale;
    this.handlers = {};
    this.inputs = null;
    this.root = null;
  }
  PaymentElement.prototype.on = function (event, handler) {
    (this.handlers[event] = this.handlers[event] || []).push(handler);
    return this;
  };
  PaymentElement.prototype.emit = function (event, payload) {
    (this.handlers[event] || []).forEach(function (h) {
      h(payload);
    });
  };
  PaymentElement.prototype.mount = function (target) {
    var host = typeof target === "string" ? document.querySelector(target) : target;
    if (!host) throw new Error("Stripe stand-in: mount target not found");
    var n = ++counter;
    var root = document.createElement("div");
    root.setAttribute("data-stripe-standin", "payment-element");
    // Stripe writes the Payment Element in elements({ locale }); the stand-in marks its language.
    if (this.locale && this.locale !== "auto") root.setAttribute("lang", this.locale);
    root.style.cssText = "font-family:system-ui,sans-serif;color:inherit";
    var note = document.createElement("p");
    note.textContent = "Test payment: Stripe stand-in, no money moves. Card 4242 4242 4242 4242 pays; 4000 0000 0000 0002 is declined.";
    note.style.cssText = "margin:0 0 10px;font-size:0.85rem";
    root.appendChild(note);
    this.inputs = {
      number: field(
        root,
        "standin-card-number-" + n,
        "Card number",
        { inputmode: "numeric", autocomplete: "cc-number", value: "4242 4242 4242 4242" },
        this.looks,
      ),
      expiry: field(root, "standin-card-expiry-" + n, "Expiration (MM / YY)", { autocomplete: "cc-exp", value: "12 / 34" }, this.looks),
      cvc: field(root, "standin-card-cvc-" + n, "Security code (CVC)", { inputmode: "numeric", autocomplete: "cc-csc", value: "123" }, this.looks),
    };
    host.appendChild(root);
    this.root = root;
    var self = this;
    setTimeout(function () {
      self.emit("ready", { elementType: "payment" });
    }, 0);
  };
  PaymentElement.prototype.unmount = function () {
    if (this.root && this.root.parentNode) this.root.parentNode.removeChild(this.root);
  };
  PaymentElement.prototype.destroy = PaymentElement.prototype.unmount;
  PaymentElement.prototype.card = function () {
    var number = this.inputs.number.value.replace(/\D/g, "");
    var expiry = this.inputs.expiry.value.split("/").map(function (s) {
      return s.trim();
    });
    var year = Number(expiry[1] || 0);
    return { number: number, exp_month: Number(expiry[0] || 0), exp_year: year < 100 ? 2000 + year : year, cvc: this.inputs.cvc.value.trim() };
  };

  function Elements(stripe, options) {
    this.stripe = stripe;
    this.clientSecret = options && options.clientSecret;
    this.appearance = options && options.appearance;
    this.locale = options && options.locale;
    this.element = null;
  }
  Elements.prototype.create = function (type) {
    if (type !== "payment") throw new Error("Stripe stand-in: only the Payment Element is implemented");
    this.element = new PaymentElement(this.appearance, this.locale);
    return this.element;
  };
  Elements.prototype.getElement = function () {
    return this.element;
  };
  Elements.prototype.submit = function () {
    var card = this.element && this.element.inputs ? this.element.card() : null;
    if (!card || card.number.length < 12) {
      return Promise.resolve({ error: { type: "validation_error", code: "incomplete_number", message: "Your card number is incomplete." } });
    }
    return Promise.resolve({});
  };

  function Stripe(key, options) {
    if (!(this instanceof Stripe)) return new Stripe(key, options);
    this.key = key;
    this.account = options && options.stripeAccount;
  }
  Stripe.version = "endive";
  Stripe.prototype._registerWrapper = function () {};
  Stripe.prototype.elements = function (options) {
    return new Elements(this, options);
  };
  Stripe.prototype.confirmPayment = function (options) {
    var elements = options.elements;
    var secret = options.clientSecret || elements.clientSecret;
    var id = String(secret).split("_secret_")[0];
    var confirmParams = options.confirmParams || {};
    var body = encode(
      {
        key: this.key,
        _stripe_account: this.account,
        client_secret: secret,
        return_url: confirmParams.return_url,
        payment_method_data: { type: "card", card: elements.element.card(), billing_details: (confirmParams.payment_method_data || {}).billing_details },
      },
      "",
      [],
    ).join("&");
    return fetch(API + "/v1/payment_intents/" + encodeURIComponent(id) + "/confirm", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: body,
    }).then(
      function (response) {
        return response.json().then(function (json) {
          if (!response.ok) return { error: json.error || { type: "api_error", message: "Payment failed" } };
          return { paymentIntent: json };
        });
      },
      function () {
        return { error: { type: "api_connection_error", message: "The payment service could not be reached." } };
      },
    );
  };

  window.Stripe = Stripe;
})();
