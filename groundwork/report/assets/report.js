// groundwork report: evidence cards, number chips and verdict highlighting. No network, no
// libraries. A card opens on a marker's click or focus and closes on Escape, a click outside
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
    const why = marker.dataset.why ? " Verified for this question: " + marker.dataset.why + "." : "";
    card.querySelector(".gw-card-verdict").textContent = statement.dataset.verdictLabel + "." + why;
    const others = [...statement.querySelectorAll(".gw-marker")].filter((m) => m !== marker);
    if (others.length) {
      const also = card.querySelector(".gw-card-also");
      also.textContent = "This statement also cites " + others.map((m) => m.textContent).join(", ") + ".";
      also.hidden = false;
    }
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
  });

  document.addEventListener("focusin", (event) => {
    const marker = event.target.closest(".gw-marker");
    if (marker) {
      if (!quiet) openCard(marker);
    } else if (open && !open.card.contains(event.target)) {
      closeCard(false);
    }
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    if (open) {
      event.preventDefault();
      closeCard(true);
      return;
    }
    const chip = document.activeElement && document.activeElement.closest(".gw-num");
    if (chip) toggleChip(chip.querySelector(".gw-chip"), false);
  });
})();
