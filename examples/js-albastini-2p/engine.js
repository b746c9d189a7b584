#!/usr/bin/env node
// Two-player Albastini, a third-party engine for the trickspec kit.
//
// Plain JavaScript for Node.js, no dependencies. It speaks the engine protocol
// (docs/protocol.md): one JSON object per line on stdin, one answer per line on
// stdout. Written from the rules dossier (Albastini, rulings R3, R4, R6, R7),
// not from the reference engine.
//
// Run it by hand:   node examples/js-albastini-2p/engine.js
// Or write a trace of games it plays by itself, for trickspec check-trace:
//   node examples/js-albastini-2p/engine.js --trace 1000 7 > games.jsonl   (games, seed)
//   {"cmd": "start", "protocol": 1}
//   {"cmd": "run", "id": "x", "variant": "albastini-2p", "setup": {...}, "actions": [...]}
//   {"cmd": "stop"}

"use strict";

const readline = require("readline");

// ---------------------------------------------------------------------------
// The game facts of albastini-2p (spec/albastini/variants/base.yaml + 2p.yaml),
// hard-coded here, in one place.
// ---------------------------------------------------------------------------
const GAME = Object.freeze({
  variant: "albastini-2p",
  players: 2,
  sides: [[0], [1]], // side index -> seats; two players play alone
  suits: ["C", "D", "H", "S"], // deck order of suits
  ranks: ["A", "7", "K", "J", "Q", "6", "5", "4", "3"], // highest first, in every suit and in trumps
  values: { A: 11, 7: 10, K: 4, J: 3, Q: 2, 6: 0, 5: 0, 4: 0, 3: 0 }, // the pack holds 120
  handSize: 5, // cards dealt to each player, one at a time (ruling R3)
  mrithiPerMember: 10, // a losing side strictly under 10 per member gives a double (ruling R7)
  singleVp: 1,
  doubleVp: 2,
});

const PROTOCOL = 1;
const IMPLEMENTATION = Object.freeze({
  name: "albastini-2p-js",
  version: "0.1.0",
  language: "javascript",
  homepage: "",
  variants: [GAME.variant],
});
const ACTION_TYPES = ["bid", "pass", "play", "take_tree", "decline", "accept", "refuse", "discard", "alone", "take_deal"];

const DECK = GAME.suits.flatMap((s) => GAME.ranks.map((r) => r + s));
const DECK_SET = new Set(DECK);
const DECK_INDEX = new Map(DECK.map((c, i) => [c, i]));

const rankOf = (card) => card[0];
const suitOf = (card) => card[1];
const valueOf = (card) => GAME.values[rankOf(card)];
const strength = (card) => GAME.ranks.length - GAME.ranks.indexOf(rankOf(card)); // higher is stronger
const sortCards = (cards) => [...cards].sort((a, b) => DECK_INDEX.get(a) - DECK_INDEX.get(b));
const next = (seat) => (seat + 1) % GAME.players;
const sideOf = (seat) => GAME.sides.findIndex((side) => side.includes(seat));
const isSeat = (x) => Number.isInteger(x) && x >= 0 && x < GAME.players;
const isCard = (x) => typeof x === "string" && DECK_SET.has(x);

// A setup no deal can begin from: answered with the setup error's code of spec/refusals.yaml.
class SetupError extends Error {}

// A refusal: the action is not applied and the state is left as it was.
class Rejection {
  constructor(code, message) {
    this.code = code;
    this.message = message;
  }
}

// ---------------------------------------------------------------------------
// The deal
// ---------------------------------------------------------------------------
class Deal {
  constructor(setup) {
    if (!setup || typeof setup !== "object" || Array.isArray(setup)) throw new SetupError("expected a setup object");
    if (!isSeat(setup.dealer)) throw new SetupError(`expected a dealer seat 0..${GAME.players - 1}, found ${JSON.stringify(setup.dealer)}`);
    this.dealer = setup.dealer;
    this.forehand = next(this.dealer);
    this.hands = GAME.sides.flat().map(() => []);
    this.stock = [];
    this.trump = null;
    this.indicator = null;
    this.bids = []; // {seat, card, outcome?}
    this.acted = new Set(); // seats that had their Otea turn
    this.turned = [];
    this.trick = []; // {seat, card}, in play order
    this.lastTrick = null;
    this.piles = GAME.sides.map(() => []);
    this.tricks = GAME.sides.map(() => 0);
    this.dead = [];
    this.result = null;
    this.match = readMatch(setup.match);

    if (setup.deck !== undefined) {
      for (const key of ["hands", "stock", "start"]) {
        if (setup[key] !== undefined) throw new SetupError(`a setup gives either deck or hands and stock, found deck and ${key}`);
      }
      const deck = cardList(setup.deck, "deck");
      this.checkEveryCardOnce(deck);
      // Ruling R3: one card at a time, from the player after the dealer, dealer last.
      let i = 0;
      for (let round = 0; round < GAME.handSize; round++) {
        for (let k = 1; k <= GAME.players; k++) this.hands[(this.dealer + k) % GAME.players].push(deck[i++]);
      }
      this.stock = deck.slice(i);
      this.startOtea();
      return;
    }
    if (setup.hands === undefined || setup.stock === undefined) throw new SetupError("a setup gives either deck, or hands and stock");
    if (!setup.hands || typeof setup.hands !== "object" || Array.isArray(setup.hands)) throw new SetupError("expected hands by seat");
    for (const [key, cards] of Object.entries(setup.hands)) {
      const seat = /^\d+$/.test(key) ? Number(key) : NaN;
      if (!isSeat(seat)) throw new SetupError(`no seat ${key} at two players`);
      this.hands[seat] = cardList(cards, `hands.${key}`);
    }
    this.stock = cardList(setup.stock, "stock");
    for (const key of ["nines", "trees_taken"]) {
      if (setup[key] !== undefined) throw new SetupError(`${key} is not part of Albastini`);
    }
    const start = setup.start;
    if (start === undefined || start === null) {
      this.checkEveryCardOnce([...this.hands.flat(), ...this.stock]);
      this.hands.forEach((hand, seat) => {
        if (hand.length !== GAME.handSize) throw new SetupError(`hands.${seat}: expected ${GAME.handSize} cards, found ${hand.length}`);
      });
      if (this.stock.length === 0) throw new SetupError("the Otea needs a stock card to turn");
      this.startOtea();
      return;
    }
    this.startMidDeal(start);
  }

  checkEveryCardOnce(cards) {
    const seen = new Set();
    for (const card of cards) {
      if (seen.has(card)) throw new SetupError(`${card} appears twice`);
      seen.add(card);
    }
    const missing = DECK.filter((c) => !seen.has(c));
    if (missing.length) throw new SetupError(`cards missing from the setup: ${missing.join(" ")}`);
  }

  startOtea() {
    this.phase = "bidding";
    // Ruling R4: the dealer's opponents bid, in play order from the player after the dealer.
    const dealerSide = sideOf(this.dealer);
    this.bidders = [];
    for (let k = 1; k <= GAME.players; k++) {
      const seat = (this.dealer + k) % GAME.players;
      if (sideOf(seat) !== dealerSide) this.bidders.push(seat);
    }
    this.toAct = this.bidders[0];
  }

  startMidDeal(start) {
    if (typeof start !== "object" || Array.isArray(start)) throw new SetupError("expected start to be an object");
    if (start.phase !== "play") throw new SetupError(`only the play phase can be started mid-deal, found ${JSON.stringify(start.phase)}`);
    if (!GAME.suits.includes(start.trump)) throw new SetupError(`expected a trump suit, found ${JSON.stringify(start.trump)}`);
    if (!isSeat(start.to_act)) throw new SetupError(`expected to_act to be a seat, found ${JSON.stringify(start.to_act)}`);
    for (const key of ["makers", "lone"]) {
      if (start[key] !== undefined && start[key] !== null) throw new SetupError(`${key} is not part of Albastini`);
    }
    this.phase = "play";
    this.trump = start.trump;
    this.toAct = start.to_act;
    this.bidders = [];
    if (start.indicator !== undefined && start.indicator !== null && !isCard(start.indicator)) {
      throw new SetupError(`expected an indicator card, found ${JSON.stringify(start.indicator)}`);
    }
    this.indicator = start.indicator === undefined ? null : start.indicator;
    const trick = start.trick === undefined ? [] : start.trick;
    if (!Array.isArray(trick) || trick.length >= GAME.players) throw new SetupError("expected fewer trick cards than players");
    let seat = trick.length ? trick[0].seat : this.toAct;
    for (const [i, entry] of trick.entries()) {
      if (!entry || !isSeat(entry.seat) || !isCard(entry.card)) throw new SetupError(`trick.${i}: expected {seat, card}`);
      if (entry.seat !== seat) throw new SetupError(`trick.${i}: seat ${entry.seat} plays out of turn`);
      this.trick.push({ seat: entry.seat, card: entry.card });
      seat = next(seat);
    }
    if (seat !== this.toAct) throw new SetupError(`after the trick on the table seat ${seat} is to act, not ${this.toAct}`);
    if (start.piles !== undefined) {
      if (!start.piles || typeof start.piles !== "object" || Array.isArray(start.piles)) throw new SetupError("expected piles by side");
      for (const [key, cards] of Object.entries(start.piles)) {
        const side = /^\d+$/.test(key) ? Number(key) : NaN;
        if (!(side >= 0 && side < GAME.sides.length)) throw new SetupError(`no side ${key} at two players`);
        this.piles[side] = cardList(cards, `piles.${key}`);
      }
    }
    if (start.tricks !== undefined) {
      if (!Array.isArray(start.tricks) || start.tricks.length !== GAME.sides.length || !start.tricks.every((n) => Number.isInteger(n) && n >= 0)) {
        throw new SetupError("expected tricks: one count per side");
      }
      this.tricks = [...start.tricks];
    } else {
      this.tricks = this.piles.map((pile) => Math.floor(pile.length / GAME.players));
    }
    this.dead = start.dead === undefined ? [] : cardList(start.dead, "dead");
    // what was turned before the start: a record of the deal, its cards placed elsewhere
    this.turned = start.turned === undefined ? [] : cardList(start.turned, "turned");
    this.checkEveryCardOnce([
      ...this.hands.flat(),
      ...this.stock,
      ...this.trick.map((t) => t.card),
      ...this.piles.flat(),
      ...this.dead,
    ]);
    this.checkTurnedLies();
    this.checkIndicatorLies();
    this.finishIfDone();
  }

  // The card turned is the indicator, face up under the stock (its last card) until it is drawn; exchanged
  // for a bid card, which is then the indicator, it went into the bidder's hand, to be played from there.
  checkTurnedLies() {
    if (this.turned.length === 0) return;
    const turned = this.turned[0];
    const last = this.stock[this.stock.length - 1];
    if (this.indicator !== null && this.indicator !== turned) {
      const took = `${turned} was exchanged for ${this.indicator}, the indicator: a bidder took it into hand`;
      if (this.stock.includes(turned)) throw new SetupError(`${took}, so it lies in no stock`);
      const played = this.trick.find((t) => t.card === turned);
      const holder = played ? played.seat : this.hands.findIndex((hand) => hand.includes(turned));
      // Ruling R4: the dealer's opponents bid; no other seat takes the card turned.
      if (holder >= 0 && sideOf(holder) === sideOf(this.dealer)) throw new SetupError(`${took}, not seat ${holder}`);
      return;
    }
    if (this.stock.includes(turned) && turned !== last) {
      throw new SetupError(`${turned}, the card turned, lies under the stock, its last card, until it is drawn`);
    }
  }

  // While the stock lasts the indicator lies face up under it, its last card, until the last drawer takes it
  // (ruling R6): a start with a stock gives it there, never out of play or anywhere else.
  checkIndicatorLies() {
    if (this.stock.length === 0) return;
    if (this.indicator === null) throw new SetupError("while the stock lasts its last card is the indicator: expected start.indicator");
    if (this.indicator !== this.stock[this.stock.length - 1]) {
      throw new SetupError(`while the stock lasts the indicator lies under it, its last card: ${this.indicator} does not`);
    }
  }

  // -- what may be done now ---------------------------------------------------------------
  legal() {
    if (this.phase === "bidding") {
      const seat = this.toAct;
      const bidSuits = new Set(this.bids.map((b) => suitOf(b.card)));
      return [
        { type: "pass", seat },
        ...sortCards(this.hands[seat])
          .filter((card) => !bidSuits.has(suitOf(card)))
          .map((card) => ({ type: "bid", seat, card })),
      ];
    }
    if (this.phase === "play") {
      // Free play: any card in hand, always.
      return sortCards(this.hands[this.toAct]).map((card) => ({ type: "play", seat: this.toAct, card }));
    }
    return [];
  }

  // -- actions: returns null when applied, or a Rejection (state untouched) ----------------
  apply(action) {
    const problem = this.check(action);
    if (problem) return problem;
    if (action.type === "play") this.play(action.seat, action.card);
    else this.bid(action.seat, action.type === "bid" ? action.card : null);
    return null;
  }

  check(action) {
    if (!action || typeof action !== "object" || Array.isArray(action)) return new Rejection("invalid_action", "expected an action object");
    const { type, seat, card } = action;
    if (!ACTION_TYPES.includes(type)) return new Rejection("invalid_action", `unknown action type ${JSON.stringify(type)}`);
    if (!isSeat(seat)) return new Rejection("invalid_action", `expected a seat 0..${GAME.players - 1}, found ${JSON.stringify(seat)}`);
    const withCard = type === "bid" || type === "play" || type === "take_tree" || type === "discard";
    if (withCard && !isCard(card)) {
      return new Rejection("invalid_action", `${JSON.stringify(card)} is not a card of the 36-card pack`);
    }
    const keys = withCard ? ["type", "seat", "card"] : ["type", "seat"];
    const extra = Object.keys(action).filter((k) => !keys.includes(k));
    if (extra.length) return new Rejection("invalid_action", `a ${type} action has only the keys ${keys.join(", ")}, found ${extra.join(", ")}`);
    if (!["bid", "pass", "play"].includes(type)) return new Rejection("invalid_action", `albastini-2p has no ${type} action`);
    if (this.phase === "over") return new Rejection("wrong_phase", "the deal is over");
    if (type === "bid" || type === "pass") {
      if (this.phase !== "bidding") return new Rejection("wrong_phase", `no ${type} in the ${this.phase} phase`);
      if (!this.bidders.includes(seat)) return new Rejection("not_allowed_to_bid", `seat ${seat} is on the dealer's side and may not bid`);
      if (this.acted.has(seat)) return new Rejection("already_acted", `seat ${seat} has had its Otea turn`);
      if (seat !== this.toAct) return new Rejection("not_your_turn", `seat ${this.toAct} is to act`);
      if (type === "bid") {
        if (!this.hands[seat].includes(card)) return new Rejection("card_not_in_hand", `seat ${seat} does not hold ${card}`);
        if (this.bids.some((b) => suitOf(b.card) === suitOf(card))) return new Rejection("suit_already_bid", `${suitOf(card)} was already bid`);
      }
      return null;
    }
    if (type === "play") {
      if (this.phase !== "play") return new Rejection("wrong_phase", `no play in the ${this.phase} phase`);
      if (seat !== this.toAct) return new Rejection("not_your_turn", `seat ${this.toAct} is to act`);
      if (!this.hands[seat].includes(card)) return new Rejection("card_not_in_hand", `seat ${seat} does not hold ${card}`);
      return null;
    }
    return new Rejection("invalid_action", `albastini-2p has no ${type} action`);
  }

  bid(seat, card) {
    this.acted.add(seat);
    if (card !== null) {
      this.hands[seat] = this.hands[seat].filter((c) => c !== card); // laid face up
      this.bids.push({ seat, card });
    }
    const waiting = this.bidders.filter((s) => !this.acted.has(s));
    if (waiting.length) {
      this.toAct = waiting[0];
      return;
    }
    // Everyone eligible had a turn: the dealer turns the top stock card; its suit is trumps.
    const turned = this.stock.shift();
    this.turned.push(turned);
    this.trump = suitOf(turned);
    let indicator = turned;
    for (const b of this.bids) {
      if (suitOf(b.card) === this.trump) {
        // The compulsory exchange: the bidder takes the turned card, the bid card is the indicator.
        this.hands[b.seat].push(turned);
        indicator = b.card;
        b.outcome = "exchanged";
      } else {
        this.hands[b.seat].push(b.card);
        b.outcome = "returned";
      }
    }
    // The indicator lies face up under the stock: its last card.
    this.indicator = indicator;
    this.stock.push(indicator);
    this.phase = "play";
    this.toAct = this.forehand;
  }

  play(seat, card) {
    this.hands[seat] = this.hands[seat].filter((c) => c !== card);
    this.trick.push({ seat, card });
    if (this.trick.length < GAME.players) {
      this.toAct = next(seat);
      return;
    }
    const winner = this.trickWinner();
    const points = this.trick.reduce((sum, t) => sum + valueOf(t.card), 0);
    const side = sideOf(winner);
    this.piles[side].push(...this.trick.map((t) => t.card));
    this.tricks[side] += 1;
    this.lastTrick = { cards: this.trick, winner, points };
    this.trick = [];
    // While the stock lasts everyone draws one card, the winner first, then in play order;
    // the indicator, last in the stock, goes to the last drawer (ruling R6).
    for (let k = 0; k < GAME.players && this.stock.length; k++) {
      this.hands[(winner + k) % GAME.players].push(this.stock.shift());
    }
    this.toAct = winner;
    this.finishIfDone();
  }

  // The highest trump wins; with no trump, the highest card of the suit led.
  trickWinner() {
    let best = this.trick[0];
    for (const t of this.trick.slice(1)) {
      const sameSuit = suitOf(t.card) === suitOf(best.card);
      if ((sameSuit && strength(t.card) > strength(best.card)) || (suitOf(t.card) === this.trump && suitOf(best.card) !== this.trump)) {
        best = t;
      }
    }
    return best.seat;
  }

  finishIfDone() {
    if (this.trick.length || this.hands.some((h) => h.length)) return;
    this.dead.push(...this.stock);
    this.stock = [];
    this.phase = "over";
    this.toAct = null;
    this.result = this.score();
    if (this.result.winner !== null) {
      this.match.vp[this.result.winner] += this.result.vp;
      for (const seat of GAME.sides[this.result.winner]) this.match.sheet[seat] += this.result.vp;
      const target = this.match.target;
      if (target !== null && this.match.vp[this.result.winner] >= target) this.match.winner = this.result.winner;
    }
  }

  // Mrithi: the single highest total wins 1 VP, 2 if any losing side is strictly under its
  // line (ruling R7: every non-winning side is checked); a tie for the top scores nothing and
  // the same dealer deals again.
  score() {
    const totals = this.totals();
    const top = Math.max(...totals);
    const leaders = totals.map((t, i) => (t === top ? i : -1)).filter((i) => i >= 0);
    if (leaders.length > 1) return { winner: null, tie: true, vp: 0, double: false, totals, next_dealer: this.dealer };
    const winner = leaders[0];
    const double = totals.some((t, i) => i !== winner && t < GAME.mrithiPerMember * GAME.sides[i].length);
    return {
      winner,
      tie: false,
      vp: double ? GAME.doubleVp : GAME.singleVp,
      double,
      totals,
      next_dealer: GAME.sides[winner][0], // two players: the winner deals
    };
  }

  totals() {
    return this.piles.map((pile) => pile.reduce((sum, c) => sum + valueOf(c), 0));
  }

  // -- what is reported (god view, snapshot.schema.json) -------------------------------------
  snapshot() {
    const hands = {};
    this.hands.forEach((h, seat) => (hands[String(seat)] = sortCards(h)));
    const sheet = {};
    for (const [seat, vp] of Object.entries(this.match.sheet)) sheet[seat] = vp;
    return {
      variant: GAME.variant,
      phase: this.phase,
      to_act: this.toAct,
      dealer: this.dealer,
      forehand: this.forehand,
      trump: this.trump,
      indicator: this.indicator,
      stock_count: this.stock.length,
      stock: [...this.stock],
      hands,
      bids: this.bids.map((b) => ({ ...b })),
      turned: [...this.turned],
      trick: this.trick.map((t) => ({ ...t })),
      last_trick: this.lastTrick && {
        cards: this.lastTrick.cards.map((t) => ({ ...t })),
        winner: this.lastTrick.winner,
        points: this.lastTrick.points,
      },
      sides: GAME.sides.map((s) => [...s]),
      piles: this.piles.map((p) => [...p]),
      totals: this.totals(),
      tricks: [...this.tricks],
      dead: [...this.dead],
      makers: null,
      lone: null,
      trees_taken: [],
      result: this.result && { ...this.result, totals: [...this.result.totals] },
      match: { vp: [...this.match.vp], sheet, target: this.match.target, winner: this.match.winner },
    };
  }
}

function cardList(value, where) {
  if (!Array.isArray(value)) throw new SetupError(`${where}: expected a list of cards`);
  for (const card of value) {
    if (!isCard(card)) throw new SetupError(`${where}: ${JSON.stringify(card)} is not a card of the 36-card pack`);
  }
  return [...value];
}

// The match so far: VP per side, the score sheet's column per player (default: the side's VP),
// and a VP target the table may agree as a house rule (none by default: the match is open).
function readMatch(match) {
  const vp = GAME.sides.map(() => 0);
  const sheet = {};
  if (match !== undefined && match !== null) {
    if (typeof match !== "object" || Array.isArray(match)) throw new SetupError("expected match to be an object");
    if (match.vp !== undefined) {
      if (!Array.isArray(match.vp) || match.vp.length !== GAME.sides.length || !match.vp.every((n) => Number.isInteger(n) && n >= 0)) {
        throw new SetupError("expected match.vp: one count per side");
      }
      match.vp.forEach((n, i) => (vp[i] = n));
    }
  }
  GAME.sides.forEach((side, i) => side.forEach((seat) => (sheet[String(seat)] = vp[i])));
  if (match && match.sheet !== undefined) {
    if (!match.sheet || typeof match.sheet !== "object" || Array.isArray(match.sheet)) throw new SetupError("expected match.sheet by seat");
    for (const [key, n] of Object.entries(match.sheet)) {
      if (!isSeat(/^\d+$/.test(key) ? Number(key) : NaN) || !Number.isInteger(n) || n < 0) throw new SetupError(`match.sheet.${key}: expected a count for a seat`);
      sheet[key] = n;
    }
  }
  let target = null;
  if (match && match.target !== undefined && match.target !== null) {
    if (!Number.isInteger(match.target) || match.target < 1) throw new SetupError("expected match.target: a positive number of VP");
    if (Math.max(...vp) >= match.target) throw new SetupError(`the match is already won (target ${match.target})`);
    target = match.target;
  }
  return { vp, sheet, target, winner: null };
}

// ---------------------------------------------------------------------------
// The protocol
// ---------------------------------------------------------------------------
function run(message) {
  const id = message.id;
  if (typeof id !== "string") return { error: { kind: "bad_request", message: "a run needs a string id" } };
  if (typeof message.variant !== "string") return { id, error: { kind: "bad_request", message: "a run needs a variant id" } };
  if (!Array.isArray(message.actions)) return { id, error: { kind: "bad_request", message: "a run needs a list of actions" } };
  if (message.variant !== GAME.variant) {
    return { id, error: { kind: "setup", message: `this engine plays ${GAME.variant} only, not ${JSON.stringify(message.variant)}` } };
  }
  let deal;
  try {
    deal = new Deal(message.setup);
  } catch (err) {
    const code = err instanceof SetupError ? { code: "invalid_setup" } : {};
    return { id, error: { kind: "setup", ...code, message: describe(err) } };
  }
  const observe = (rejected) => ({ rejected, snapshot: deal.snapshot(), legal: deal.legal() });
  const observations = [observe(null)];
  for (const action of message.actions) {
    try {
      const refusal = deal.apply(action);
      observations.push(observe(refusal && { code: refusal.code, message: refusal.message }));
    } catch (err) {
      return { id, observations, error: { kind: "crash", message: `on ${JSON.stringify(action)}: ${describe(err)}` } };
    }
  }
  return { id, observations };
}

function describe(err) {
  return err instanceof Error ? err.message : String(err);
}

function answer(line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch (err) {
    return { error: { kind: "bad_request", message: `not JSON: ${describe(err)}` } };
  }
  if (!message || typeof message !== "object" || Array.isArray(message)) {
    return { error: { kind: "bad_request", message: "expected a JSON object with a cmd" } };
  }
  const cmd = message.cmd;
  if (cmd === "start") {
    if (message.protocol !== PROTOCOL) return { error: { kind: "bad_request", message: `this engine speaks protocol ${PROTOCOL} only` } };
    return { started: true, protocol: PROTOCOL, implementation: IMPLEMENTATION };
  }
  if (cmd === "run") return run(message);
  return { error: { kind: "unknown_command", message: `unknown command ${JSON.stringify(cmd)}` } };
}

function main() {
  process.stdout.on("error", () => process.exit(0)); // the kit went away: nothing left to answer
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity, terminal: false });
  let stopped = false;
  input.on("line", (line) => {
    if (stopped || !line.trim()) return;
    let reply;
    try {
      if (isStop(line)) {
        stopped = true; // lines already read after stop are ignored
        input.close();
        process.stdin.destroy();
        process.exitCode = 0;
        return;
      }
      reply = answer(line);
    } catch (err) {
      // Never crash: whatever went wrong is an answer.
      let id;
      try {
        id = JSON.parse(line).id;
      } catch (_) {
        id = undefined;
      }
      const error = { kind: "crash", message: describe(err) };
      reply = typeof id === "string" ? { id, error } : { error };
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
}

// ---------------------------------------------------------------------------
// A trace (schemas/trace.schema.json): games played with random legal moves,
// one JSON line each: the deal, every action, and what the engine reports
// after the deal and after each action.
// ---------------------------------------------------------------------------
function writeTrace(games, seed) {
  let state = seed >>> 0; // mulberry32: a small seeded generator, so that a seed gives the same games
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = Math.imul(state ^ (state >>> 15), 1 | state);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const pack = GAME.suits.flatMap((suit) => GAME.ranks.map((rank) => rank + suit));
  process.stdout.write(JSON.stringify({ trace: 1, engine: IMPLEMENTATION }) + "\n");
  for (let game = 0; game < games; game++) {
    const deck = pack.slice();
    for (let i = deck.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [deck[i], deck[j]] = [deck[j], deck[i]];
    }
    const setup = { dealer: game % GAME.players, deck };
    const deal = new Deal(setup);
    const actions = [];
    const observations = [{ snapshot: deal.snapshot(), legal: deal.legal() }];
    for (let legal = deal.legal(); legal.length; legal = deal.legal()) {
      const action = legal[Math.floor(random() * legal.length)];
      deal.apply(action);
      actions.push(action);
      observations.push({ snapshot: deal.snapshot(), legal: deal.legal() });
    }
    process.stdout.write(JSON.stringify({ game, variant: GAME.variant, setup, actions, observations }) + "\n");
  }
}

function isStop(line) {
  try {
    const message = JSON.parse(line);
    return !!message && typeof message === "object" && message.cmd === "stop";
  } catch (_) {
    return false;
  }
}

if (process.argv[2] === "--trace") writeTrace(Number(process.argv[3] || 100), Number(process.argv[4] || 0));
else main();
