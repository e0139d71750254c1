// groundwork report: evidence cards, number chips, verdict highlighting, search, filters,
// permalinks, evidence appendices and keys. No network, no libraries. A card opens on a marker's click or focus and closes on Escape, a click outside
// or focus moving elsewhere; each marker has its own card, cloned from its requirement's
// <template> and told the statement's verdict and the verifier's reason.
(() => {
  "use strict";
  let open = null; // { marker, card }
  let quiet = false; // focus we move back ourselves must not reopen the card
  let serial = 0;

  function cardFor(marker) {
    if (marker.gwCard) return marker.gwCard;
    const template = document.getElementById(marker.dataset.card);
    if (!template) return null;
    const card = template.content.firstElementChild.cloneNode(true);
    card.id = "gw-card-" + ++serial;
    const statement = marker.closest(".gw-stmt");
    const line = statement.parentElement.querySelector(".gw-why");
    const reason = marker.dataset.why || (line ? line.textContent.replace(/^Why it answers: /, "") : "");
    const why = reason ? " Verified for this question: " + reason + "." : "";
    card.querySelector(".gw-card-verdict").textContent = statement.dataset.verdictLabel + "." + why;
    const others = [...statement.querySelectorAll(".gw-marker")].filter((m) => m !== marker);
    if (others.length) {
      const also = card.querySelector(".gw-card-also");
      also.textContent = "This statement also cites " + others.map((m) => m.textContent).join(", ") + ".";
      also.hidden = false;
    }
    const article = marker.closest("article");
    const local = article && document.getElementById(article.id + "-" + marker.dataset.req);
    if (local) card.querySelector(".gw-card-req").setAttribute("href", "#" + local.id);
    marker.setAttribute("aria-controls", card.id);
    marker.gwCard = card;
    return card;
  }

  // Keep the card inside its answer's column (and the window), shifting it left if needed.
  function place(card) {
    card.style.left = "0px";
    const box = card.getBoundingClientRect();
    const column = card.closest("article, main").getBoundingClientRect();
    const right = Math.min(column.right, document.documentElement.clientWidth) - 8;
    const over = box.right - right;
    if (over > 0) card.style.left = -Math.min(over, box.left - column.left) + "px";
  }

  function openCard(marker) {
    if (open && open.marker === marker) return;
    closeCard(false);
    const card = cardFor(marker);
    if (!card) return;
    marker.parentElement.appendChild(card);
    card.hidden = false;
    marker.setAttribute("aria-expanded", "true");
    place(card);
    open = { marker, card };
  }

  function closeCard(refocus) {
    if (!open) return;
    const { marker, card } = open;
    open = null;
    card.hidden = true;
    card.remove(); // out of the tab order while closed
    marker.setAttribute("aria-expanded", "false");
    if (refocus) {
      quiet = true;
      marker.focus();
      quiet = false;
    }
  }

  function toggleMore(button) {
    const card = button.closest(".gw-card");
    const full = card.querySelector(".gw-passage-full");
    const expand = full.hidden;
    full.hidden = !expand;
    card.querySelector(".gw-passage-short").hidden = expand;
    button.setAttribute("aria-expanded", String(expand));
    button.textContent = expand ? "Show less" : "Show more";
  }

  function toggleChip(chip, expand) {
    const detail = document.getElementById(chip.getAttribute("aria-controls"));
    detail.hidden = !expand;
    chip.setAttribute("aria-expanded", String(expand));
  }

  function highlight(button) {
    const scope = button.closest("[data-scope]");
    const on = button.getAttribute("aria-pressed") !== "true";
    for (const b of button.parentElement.querySelectorAll(".gw-filter")) b.setAttribute("aria-pressed", "false");
    button.setAttribute("aria-pressed", String(on));
    scope.dataset.highlight = on ? button.dataset.verdict : "";
  }

  document.addEventListener("click", (event) => {
    const target = event.target;
    const marker = target.closest(".gw-marker");
    if (marker) return openCard(marker);
    if (open && !open.card.contains(target)) closeCard(false);
    const more = target.closest(".gw-more");
    if (more) return toggleMore(more);
    const chip = target.closest(".gw-chip");
    if (chip) return toggleChip(chip, chip.getAttribute("aria-expanded") !== "true");
    const filter = target.closest(".gw-filter");
    if (filter) return highlight(filter);
    const appendix = target.closest(".gw-appendix-toggle");
    if (appendix) return toggleAppendix(appendix.closest(".gw-appendix"));
    if (target.closest("#gw-reset")) return resetFinder();
    const toc = target.closest(".gw-toc-toggle");
    if (toc) return toggleToc(toc);
  });

  document.addEventListener("focusin", (event) => {
    const marker = event.target.closest(".gw-marker");
    if (marker) {
      if (!quiet) openCard(marker);
    } else if (open && !open.card.contains(event.target)) {
      closeCard(false);
    }
  });

  // --- evidence appendices ---------------------------------------------------------------
  function toggleAppendix(section, open) {
    const expand = open === undefined ? !section.classList.contains("gw-open") : open;
    section.classList.toggle("gw-open", expand);
    section.querySelector(".gw-appendix-toggle").setAttribute("aria-expanded", String(expand));
  }

  function toggleToc(button) {
    const expand = button.getAttribute("aria-expanded") !== "true";
    button.setAttribute("aria-expanded", String(expand));
    document.getElementById("gw-nav").classList.toggle("gw-toc-open", expand);
  }

  // --- search and filters ------------------------------------------------------------------
  const articles = [...document.querySelectorAll("article.gw-answer")];
  const tocItems = new Map(
    [...document.querySelectorAll(".gw-toc li")].map((li) => [li.dataset.for, li])
  );
  const search = document.getElementById("gw-q");
  const selects = [...document.querySelectorAll(".gw-facets select")];
  let haystacks = null; // each answer's text, lower-cased once, on the first search

  // What a search reads of an answer: all its text but the candidates it did not use.
  function searchText(article) {
    const copy = article.cloneNode(true);
    copy.querySelectorAll(".gw-notused").forEach((e) => e.remove());
    return copy.textContent.toLowerCase();
  }

  function facetMatch(article, select) {
    if (!select.value) return true;
    const values = (article.getAttribute("data-f-" + select.dataset.facet) || "").split("|");
    return values.includes(select.value);
  }

  function applyFinder() {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length && !haystacks) haystacks = articles.map(searchText);
    let shown = 0;
    articles.forEach((article, i) => {
      const match =
        selects.every((s) => facetMatch(article, s)) &&
        words.every((w) => haystacks[i].includes(w));
      article.hidden = !match;
      const li = tocItems.get(article.id);
      if (li) li.hidden = !match;
      if (match) shown++;
    });
    document.getElementById("gw-shown-n").textContent = String(shown);
    document.getElementById("gw-reset").hidden = !(words.length || selects.some((s) => s.value));
  }

  function resetFinder() {
    search.value = "";
    for (const s of selects) s.value = "";
    applyFinder();
  }

  let pending = 0;
  search.addEventListener("input", () => {
    clearTimeout(pending);
    pending = setTimeout(applyFinder, 120);
  });
  for (const s of selects) s.addEventListener("change", applyFinder);

  // --- permalinks ------------------------------------------------------------------------
  // A link to a question, a requirement or an appendix entry shows it, whatever the search,
  // filters or closed appendix were hiding.
  function reveal(id) {
    const target = id && document.getElementById(decodeURIComponent(id));
    if (!target) return;
    const article = target.closest("article.gw-answer");
    if (article && article.hidden) resetFinder();
    const section = target.closest(".gw-appendix");
    if (section) toggleAppendix(section, true);
    const entry = target.closest(".gw-ev") || target;
    entry.scrollIntoView({ block: "start" });
    document.querySelectorAll(".gw-target").forEach((e) => e.classList.remove("gw-target"));
    entry.classList.add("gw-target");
  }
  window.addEventListener("hashchange", () => reveal(location.hash.slice(1)));
  if (location.hash) reveal(location.hash.slice(1));

  // --- keys --------------------------------------------------------------------------------
  function visible() {
    return articles.filter((a) => !a.hidden);
  }

  // j: the first answer below the top of the window; k: the last one above it.
  function step(by) {
    const shown = visible();
    if (!shown.length) return;
    const tops = shown.map((a) => a.getBoundingClientRect().top);
    const below = tops.findIndex((t) => t > 8);
    const above = tops.filter((t) => t < -8).length - 1;
    const index = by > 0 ? (below < 0 ? shown.length - 1 : below) : Math.max(above, 0);
    shown[index].scrollIntoView({ block: "start" });
    shown[index].querySelector("h2").focus({ preventScroll: true });
  }

  function typing(target) {
    return target.closest("input, select, textarea, [contenteditable]");
  }

  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        closeCard(true);
        return;
      }
      if (event.target === search) {
        if (search.value) resetFinder();
        else search.blur();
        return;
      }
      const chip = document.activeElement && document.activeElement.closest(".gw-num");
      if (chip) toggleChip(chip.querySelector(".gw-chip"), false);
      return;
    }
    if (event.target === search && event.key === "Enter") {
      event.preventDefault();
      const first = visible()[0];
      if (first) {
        first.scrollIntoView({ block: "start" });
        first.querySelector("h2").focus({ preventScroll: true });
      }
      return;
    }
    if (typing(event.target)) return;
    if (event.key === "/") {
      event.preventDefault();
      search.focus();
      search.select();
    } else if (event.key === "j" || event.key === "k") {
      event.preventDefault();
      step(event.key === "j" ? 1 : -1);
    }
  });
})();
