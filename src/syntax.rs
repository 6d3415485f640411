//! The syntax check: keeps candidates that parse worse than the original
//! away from the oracle (the loop sees it as a [`SyntaxFilter`]).
//!
//! For C and C++ it counts a candidate's errors in pieces parsed alone
//! ([`pieces`]). Otherwise it re-parses candidates with the input's
//! language, incrementally (as
//! edits of a text whose tree it keeps, see [`edit`]), and for languages
//! whose top-level items or list elements parse alone it judges a small
//! edit on the items or elements it touches. What it knows of the language
//! it reads from the grammar facts (`grammars/<lang>.json`).

mod blank;
mod edit;
mod pieces;
mod spliced;
mod stretch;

use std::borrow::Cow;
use std::collections::VecDeque;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use crate::interfaces::SyntaxFilter;
use crate::languages::{Language, Pieces};
use crate::tree::sitter::{PARSE_TIMEOUT, count_error_regions, count_errors, reparse};
use edit::{ByteEdit, LineIndex, byte_edit, input_edit, replacements, replacements_in};
use pieces::{PieceCounter, PieceErrors};
use spliced::Spliced;

/// Keeps candidates that parse worse than the original away from the oracle.
///
/// A candidate passes iff it has at most as many parse errors (ERROR and
/// MISSING nodes) as the original input had. A candidate whose re-parse
/// times out is rejected.
///
/// For a language whose top-level items parse alone (C, C++), errors are
/// counted in pieces ([`pieces`]): the count is a function of the
/// candidate alone and costs about the bytes its edit touches. Other
/// languages, and the lenient check, count the errors of a whole parse:
///
/// Candidates are parsed incrementally: the loop tells the check the text
/// every candidate of a pass derives from ([`SyntaxFilter::rebase`]), and
/// each candidate is parsed as one edit of that text's tree, so tree-sitter
/// re-parses only around the change instead of the whole file. A candidate
/// that differs from that text in two places far apart (one proposed on the
/// guess that a candidate still being tested passes) is parsed instead as an
/// edit of the recently accepted candidate it is closest to.
///
/// On an input that parses without errors this judges each candidate as a
/// fresh parse would, whatever text it re-parses from. On an input that
/// has parse errors it may not: tree-sitter recovers from an error
/// differently by the tree it re-parses from, so a count can be off by one
/// or two (about one candidate in a thousand in the property tests), and
/// as the text a candidate is re-parsed from depends on which tests ran
/// before it, `-j N` may then judge a candidate unlike `-j 1`. Parsing
/// every candidate afresh would cost the reducer as much CPU as the
/// whole rest of its work on a preprocessed C++ unit (measured: +60%
/// reducer CPU on the csmith case of the public bench).
pub struct SyntaxCheck {
    language: Language,
    /// The parse errors a candidate may have, once known.
    max_errors: OnceLock<usize>,
    /// The input, until its errors are counted (see [`Self::for_input`]).
    input: Mutex<Option<(Vec<u8>, usize)>>,
    timeout: Duration,
    bases: Mutex<Bases<Base>>,
    /// Whether candidates are parsed as edits of earlier texts (else each
    /// afresh, and judged by what it is alone).
    incremental: bool,
    /// For a language whose top-level items parse alone: candidates are
    /// judged by their errors counted in pieces ([`pieces`]), not by a
    /// parse of the whole text.
    pieces: Option<PieceCounter>,
    /// Texts counted in pieces, to count candidates as edits of.
    counted: Mutex<Bases<CountedText>>,
    /// The (blanked) input counted in pieces, whose bytes the texts of
    /// `counted` share where they can.
    origin: Option<Spliced>,
}

/// A text with its errors counted in pieces.
struct CountedText {
    /// Shares the bytes it has in common with the text it was counted as
    /// an edit of.
    text: Spliced,
    errors: PieceErrors,
}

/// The base a text was counted from, and the edit from it (see
/// [`Bases::closest`]).
type Closest = Option<(Arc<CountedText>, Option<ByteEdit>)>;

/// Texts with their trees ([`Base`]) or counts ([`CountedText`]), to
/// judge candidates as edits of.
struct Bases<B> {
    /// The text candidates are edits of (the current best).
    committed: Option<Arc<B>>,
    /// The last few accepted candidates, newest last.
    recent: VecDeque<Arc<B>>,
}

impl<B> Default for Bases<B> {
    fn default() -> Self {
        Bases {
            committed: None,
            recent: VecDeque::new(),
        }
    }
}

/// What a base is a base of.
trait HasText {
    /// Whether its text is `bytes`.
    fn is(&self, bytes: &[u8]) -> bool;
    /// The single edit that turns its text into `new`.
    fn edit_to(&self, new: &[u8]) -> Option<ByteEdit>;
}

impl HasText for Base {
    fn is(&self, bytes: &[u8]) -> bool {
        self.text == bytes
    }

    fn edit_to(&self, new: &[u8]) -> Option<ByteEdit> {
        byte_edit(&self.text, new)
    }
}

impl HasText for CountedText {
    fn is(&self, bytes: &[u8]) -> bool {
        self.text.is(bytes)
    }

    fn edit_to(&self, new: &[u8]) -> Option<ByteEdit> {
        self.text.edit_to(new)
    }
}

impl<B: HasText> Bases<B> {
    /// Keeps an accepted candidate's base, forgetting the oldest past
    /// [`RECENT_BASES`].
    fn keep(&mut self, base: Arc<B>) {
        if self.recent.len() == RECENT_BASES {
            self.recent.pop_front();
        }
        self.recent.push_back(base);
    }

    /// The recent accepted candidate whose text is `text`, if any.
    fn recent_with(&self, text: &[u8]) -> Option<Arc<B>> {
        self.recent.iter().rev().find(|b| b.is(text)).cloned()
    }

    /// The committed text or a recent accepted candidate, if either is `text`.
    fn with(&self, text: &[u8]) -> Option<Arc<B>> {
        let committed = self.committed.as_ref().filter(|b| b.is(text));
        committed.cloned().or_else(|| self.recent_with(text))
    }

    /// The base `bytes` is the smallest edit of, with that edit (`None`:
    /// the same text): the committed text, unless they differ in
    /// [`SMALL_EDIT`] bytes or more (a candidate proposed on a guess), then
    /// the closest of it and the recent accepted candidates.
    fn closest(bases: &Mutex<Self>, bytes: &[u8]) -> Option<(Arc<B>, Option<ByteEdit>)> {
        let committed = bases.lock().expect("bases poisoned").committed.clone();
        let span = |edit: &Option<ByteEdit>| edit.map_or(0, ByteEdit::old_len);
        let mut best = committed.map(|base| {
            let edit = base.edit_to(bytes);
            (base, edit)
        });
        if best
            .as_ref()
            .is_none_or(|(_, edit)| span(edit) >= SMALL_EDIT)
        {
            // Only then are the recent bases looked at (and their list copied).
            let recent = bases.lock().expect("bases poisoned").recent.clone();
            for base in recent.into_iter().rev() {
                let edit = base.edit_to(bytes);
                if best.as_ref().is_none_or(|(_, e)| span(&edit) < span(e)) {
                    best = Some((base, edit));
                }
            }
        }
        best
    }
}

struct Base {
    text: Vec<u8>,
    /// Built when a candidate is first parsed from this base (most
    /// accepted candidates never are).
    lines: OnceLock<LineIndex>,
    /// The tree's parse errors, counted when first asked.
    errors: OnceLock<usize>,
    tree: tree_sitter::Tree,
}

impl Base {
    fn new(text: &[u8], tree: tree_sitter::Tree) -> Arc<Self> {
        Arc::new(Base {
            text: text.to_vec(),
            lines: OnceLock::new(),
            errors: OnceLock::new(),
            tree,
        })
    }

    fn errors(&self) -> usize {
        *self
            .errors
            .get_or_init(|| count_errors(self.tree.root_node()))
    }

    fn lines(&self) -> &LineIndex {
        self.lines.get_or_init(|| LineIndex::new(&self.text))
    }
}

/// How many accepted candidates are kept as bases.
const RECENT_BASES: usize = 4;

/// The largest stretch of top-level items or list elements a candidate is
/// checked on alone; past it, the whole candidate is re-parsed
/// incrementally. (A fresh parse costs about 0.2 ms per KB; an incremental
/// parse of a megabyte of C++ with errors, 60 ms for an edit of that size.)
const LOCAL_CHECK_MAX: usize = 64 * 1024;

/// An edit of the committed text shorter than this is parsed from it
/// without looking for a closer base.
const SMALL_EDIT: usize = 4096;

impl SyntaxCheck {
    /// A check allowing at most `max_errors` parse errors.
    pub fn new(language: Language, max_errors: usize) -> Self {
        SyntaxCheck {
            language,
            max_errors: OnceLock::from(max_errors),
            input: Mutex::new(None),
            timeout: PARSE_TIMEOUT,
            bases: Mutex::new(Bases::default()),
            incremental: true,
            pieces: Self::piece_counter(language),
            counted: Mutex::new(Bases::default()),
            origin: None,
        }
    }

    /// The counter in pieces, for a language whose top-level items parse
    /// alone.
    fn piece_counter(language: Language) -> Option<PieceCounter> {
        (language.pieces() == Pieces::TopLevelItems)
            .then(|| PieceCounter::new(language, PARSE_TIMEOUT))
    }

    /// A check allowing the parse errors of `input`, whose tree (built in
    /// pieces, see [`crate::tree::parse`]) counted `tree_errors`: the most
    /// of those and the errors of a parse of the whole input, which this
    /// check's parses of candidates count like. (In pieces, tree-sitter may
    /// recover from an error differently.) The whole input is parsed when
    /// a candidate first needs it, if no rebase on the input parsed it
    /// before. Where the language's `syntax_blanks` blank some of the
    /// input, only that parse counts.
    pub fn for_input(language: Language, input: &[u8], tree_errors: usize) -> Self {
        let input = blank::blanked(&language.grammar().syntax_blanks, input);
        let blanked = matches!(input, Cow::Owned(_));
        let pieces = Self::piece_counter(language);
        if let Some(counter) = pieces {
            return Self::counting_input(language, counter, input.into_owned());
        }
        if tree_errors == 0 && !blanked {
            // Pieces that parse cleanly make the tree a whole parse makes.
            return SyntaxCheck::new(language, 0);
        }
        // The tree counted the text as it is; blanked, a whole parse counts.
        let tree_errors = if blanked { 0 } else { tree_errors };
        SyntaxCheck {
            language,
            max_errors: OnceLock::new(),
            input: Mutex::new(Some((input.into_owned(), tree_errors))),
            timeout: PARSE_TIMEOUT,
            bases: Mutex::new(Bases::default()),
            incremental: true,
            pieces: None,
            counted: Mutex::new(Bases::default()),
            origin: None,
        }
    }

    /// The check in pieces of a (blanked) `input`: its count is the most a
    /// candidate may have (0 if a parse timed out), and it is the first
    /// text candidates are counted as edits of.
    fn counting_input(language: Language, counter: PieceCounter, input: Vec<u8>) -> Self {
        let errors = counter.count(&input);
        let max_errors = errors.as_ref().map_or(0, PieceErrors::total);
        let origin = Spliced::owning(input);
        let committed = errors.map(|errors| {
            Arc::new(CountedText {
                text: origin.clone(),
                errors,
            })
        });
        SyntaxCheck {
            pieces: Some(counter),
            origin: Some(origin),
            counted: Mutex::new(Bases {
                committed,
                recent: VecDeque::new(),
            }),
            ..SyntaxCheck::new(language, max_errors)
        }
    }

    /// A check allowing at most `max_errors` parse errors that parses
    /// every candidate afresh: its verdicts depend on the candidate alone,
    /// even on inputs with parse errors.
    #[cfg(test)]
    pub(crate) fn afresh(language: Language, max_errors: usize) -> Self {
        SyntaxCheck {
            incremental: false,
            ..SyntaxCheck::new(language, max_errors)
        }
    }

    /// `bytes` as this check parses it: with the language's
    /// `syntax_blanks` made spaces ([`blank`]).
    fn blanked<'t>(&self, bytes: &'t [u8]) -> Cow<'t, [u8]> {
        blank::blanked(&self.language.grammar().syntax_blanks, bytes)
    }

    /// The parse errors a candidate may have.
    fn max_errors(&self) -> usize {
        *self.max_errors.get_or_init(|| {
            let (input, tree_errors) = self
                .input
                .lock()
                .expect("input poisoned")
                .take()
                .expect("a check without a count has its input");
            let whole = self.base_of(&input).map_or(0, |base| base.errors());
            whole.max(tree_errors)
        })
    }

    /// This check judging C and C++ by whole parses, as it still does in
    /// the lenient check: the tests of the local check use it.
    #[cfg(test)]
    fn parsing_whole(mut self) -> Self {
        self.pieces = None;
        self
    }

    /// A check against the original input's tree.
    #[cfg(test)]
    pub(crate) fn for_tree(language: Language, tree: &crate::tree::Tree) -> Self {
        SyntaxCheck::new(language, tree.parse_errors)
    }

    /// The parse errors of `bytes`, or `None` if parsing timed out.
    #[cfg(test)]
    pub(crate) fn errors_in(&self, bytes: &[u8]) -> Option<usize> {
        self.parse(&self.blanked(bytes))
            .map(|t| count_errors(t.root_node()))
    }

    /// The error regions of `bytes` (parse errors other than missing
    /// tokens), or `None` if parsing timed out.
    #[cfg(test)]
    fn error_regions_in(&self, bytes: &[u8]) -> Option<usize> {
        self.parse(&self.blanked(bytes))
            .map(|t| count_error_regions(t.root_node()))
    }

    /// `bytes` parsed as an edit of the closest base when there is one.
    fn parse(&self, bytes: &[u8]) -> Option<tree_sitter::Tree> {
        if !self.incremental {
            return reparse(self.language, bytes, None, self.timeout);
        }
        match Bases::closest(&self.bases, bytes) {
            Some((base, None)) => Some(base.tree.clone()),
            Some((base, Some(edit))) => {
                let mut old = base.tree.clone();
                // Last first: each edit's offsets are then the base's.
                for replace in replacements_in(&base.text, bytes, edit).iter().rev() {
                    old.edit(&input_edit(base.lines(), bytes, replace));
                }
                reparse(self.language, bytes, Some(&old), self.timeout)
            }
            None => reparse(self.language, bytes, None, self.timeout),
        }
    }

    /// Whether `bytes` has no more parse errors than allowed, judged from
    /// the parts of the committed text its edits touch, parsed alone: the
    /// items around each edit for a grammar whose items parse alone
    /// ([`stretch::stretches`], where the items on either side have no
    /// errors: then the candidate has no more than the committed text's
    /// errors, those of the list's other items and elsewhere, and none
    /// where the stretch stands), else the list elements
    /// around its one edit ([`Self::list_stretch`], for a committed text
    /// without errors). `None` when neither applies or the parts span
    /// more than [`LOCAL_CHECK_MAX`] bytes. `Some(false)` settles nothing
    /// (see [`SyntaxFilter::accepts`] below).
    ///
    /// Only stretches without errors are judged so: a stretch's own errors
    /// would be an estimate of the whole parse's (tree-sitter recovers
    /// from an error by what lies around it), and one that depends on the
    /// committed text, so `-j N` would judge a candidate proposed on a
    /// guess unlike `-j 1` (tried: the determinism tests fail).
    fn local_verdict(&self, bytes: &[u8]) -> Option<bool> {
        if !self.incremental {
            return None;
        }
        let committed = self
            .bases
            .lock()
            .expect("bases poisoned")
            .committed
            .clone()?;
        let grammar = self.language.grammar();
        // Errors outside the lists of items a candidate's edits lie in are
        // allowed (see [`stretch::stretches`]); a stretch of a list's
        // elements needs a committed text without any.
        let clean = !committed.tree.root_node().has_error();
        let lists = grammar.has_item_lists();
        if !(clean || lists && committed.errors() <= self.max_errors()) {
            return None;
        }
        if !lists {
            let Some(edit) = byte_edit(&committed.text, bytes) else {
                return Some(true);
            };
            let alone = self.list_stretch(&committed, bytes, edit)?;
            let tree = reparse(self.language, &alone, None, self.timeout)?;
            return Some(!tree.root_node().has_error());
        }
        let replaces = replacements(&committed.text, bytes);
        let stretches = stretch::stretches(grammar, &committed.tree, &replaces, LOCAL_CHECK_MAX)?;
        Some(stretches.iter().all(|stretch| {
            let inside = &bytes[stretch.new.clone()];
            let alone = if stretch.open.is_empty() && stretch.close.is_empty() {
                Cow::Borrowed(inside)
            } else {
                Cow::Owned([stretch.open, inside, stretch.close].concat())
            };
            reparse(self.language, &alone, None, self.timeout)
                .is_some_and(|tree| !tree.root_node().has_error())
        }))
    }

    /// Keeps an accepted candidate's tree as a base for the candidates
    /// after it; returns `accepted`.
    fn keep_if_accepted(&self, bytes: &[u8], tree: tree_sitter::Tree, accepted: bool) -> bool {
        if accepted {
            let base = Base::new(bytes, tree);
            self.bases.lock().expect("bases poisoned").keep(base);
        }
        accepted
    }

    /// The committed text's or a recent candidate's base if it is `text`,
    /// else `text` parsed (`None` if that timed out).
    fn base_of(&self, text: &[u8]) -> Option<Arc<Base>> {
        let known = {
            let bases = self.bases.lock().expect("bases poisoned");
            let committed = bases.committed.clone().filter(|b| b.text == text);
            committed.or_else(|| bases.recent_with(text))
        };
        known.or_else(|| self.parse(text).map(|tree| Base::new(text, tree)))
    }

    /// Whether `bytes` (parsed: `tree`) has no more than `allowed` error
    /// regions once the language's `implied_text` is put back at the start
    /// of the top-level item where it differs from its parent (`edit`: how
    /// it does): C's `f(x) {}`
    /// (from `f(int x) {}`, whose return type went before) is an error
    /// region to tree-sitter-c but `int f(x) {}` to a C89 compiler.
    fn parses_with_implied_text(
        &self,
        edit: &ByteEdit,
        bytes: &[u8],
        tree: &tree_sitter::Tree,
        allowed: usize,
    ) -> bool {
        let Some(implied) = &self.language.grammar().implied_text else {
            return false;
        };
        let root = tree.root_node();
        let mut items = root.walk();
        let Some(item) = root
            .children(&mut items)
            .take_while(|c| c.start_byte() <= edit.start)
            .last()
        else {
            return false;
        };
        let at = item.start_byte();
        let mut variant = Vec::with_capacity(bytes.len() + implied.len() + 1);
        variant.extend_from_slice(&bytes[..at]);
        variant.extend_from_slice(implied.as_bytes());
        variant.push(b' ');
        variant.extend_from_slice(&bytes[at..]);
        self.parse(&variant)
            .is_some_and(|t| count_error_regions(t.root_node()) <= allowed)
    }

    /// Whether `edit` of `parent`'s text deletes only tokens a consumer
    /// implies (`implied_tokens` in grammars/*.json), and the whitespace
    /// between them.
    fn deletes_only_implied_tokens(&self, parent: &Base, edit: &ByteEdit) -> bool {
        let grammar = self.language.grammar();
        if !grammar.has_implied_tokens() {
            return false;
        }
        if edit.new_end != edit.start {
            return false; // not a deletion
        }
        let (start, end) = (edit.start, edit.old_end);
        let mut cursor = parent.tree.walk();
        // Visit the leaves the deleted bytes overlap, in order; `covered`
        // is where the last one ended (or the deletion's start).
        let mut covered = start;
        let mut descend = true;
        loop {
            let node = cursor.node();
            let overlaps = node.start_byte() < end && node.end_byte() > start;
            if overlaps && descend && cursor.goto_first_child() {
                continue;
            }
            if overlaps && node.child_count() == 0 {
                let implied = grammar
                    .find_kind(node.kind(), node.is_named())
                    .is_some_and(|k| grammar.is_implied_token(k));
                let gap = &parent.text[covered..node.start_byte().max(covered)];
                if !implied
                    || node.start_byte() < start
                    || node.end_byte() > end
                    || !gap.iter().all(u8::is_ascii_whitespace)
                {
                    return false;
                }
                covered = node.end_byte();
            }
            if node.start_byte() >= end {
                break;
            }
            if cursor.goto_next_sibling() {
                descend = true;
            } else if cursor.goto_parent() {
                descend = false;
            } else {
                break;
            }
        }
        covered > start
            && parent.text[covered..end]
                .iter()
                .all(u8::is_ascii_whitespace)
    }

    /// For grammars with lists whose elements parse alone (JSON's arrays
    /// and objects): the innermost such list whose brackets `edit` leaves
    /// alone, the stretch of its elements from the separator (or opening
    /// bracket) before the edit to the one after it, inside the list's
    /// [`crate::grammar::ListContext`]: a text to parse alone.
    ///
    /// Why parsing it decides: elements are context-free, so the candidate
    /// parses iff the stretch is a valid run of elements where it stands:
    /// after the opening bracket or after a separator that follows an
    /// element, and before the closing bracket or a separator that precedes
    /// one — which is what the context text puts around it. The committed
    /// text outside the stretch parses (it has no errors), and the
    /// stretch's ends are separators or brackets, so no token is glued
    /// across them.
    fn list_stretch(&self, committed: &Base, bytes: &[u8], edit: ByteEdit) -> Option<Vec<u8>> {
        let grammar = self.language.grammar();
        let mut list = committed
            .tree
            .root_node()
            .descendant_for_byte_range(edit.start, edit.last_old_byte())?;
        let context = loop {
            if let Some(context) = grammar
                .find_kind(list.kind(), list.is_named())
                .and_then(|k| grammar.list_context(k))
                && list.start_byte() < edit.start
                && edit.old_end < list.end_byte()
            {
                break context;
            }
            list = list.parent()?;
        };
        // The separator or bracket before the edit, and the one after it.
        let mut before = list.first_child_for_byte(edit.start)?;
        while before.is_named() || before.end_byte() > edit.start {
            before = before.prev_sibling()?;
        }
        let mut after = list.first_child_for_byte(edit.last_old_byte())?;
        while after.is_named() || after.start_byte() < edit.old_end {
            after = after.next_sibling()?;
        }
        let (start, end) = (before.end_byte(), edit.to_new(after.start_byte()));
        if end - start > LOCAL_CHECK_MAX {
            return None;
        }
        let opens = before.prev_sibling().is_none();
        let closes = after.next_sibling().is_none();
        // A separator: one of the two, unless they are both brackets.
        let separator = &committed.text[(if opens { after } else { before }).byte_range()];
        let mut text = context.open.clone();
        if !opens {
            text.extend_from_slice(&context.element);
            text.extend_from_slice(separator);
        }
        text.extend_from_slice(&bytes[start..end]);
        if !closes {
            text.extend_from_slice(separator);
            text.extend_from_slice(&context.element);
        }
        text.extend_from_slice(&context.close);
        Some(text)
    }
}

impl SyntaxCheck {
    /// `bytes`' errors counted in pieces, as an edit of the committed
    /// text, or of the recent candidate closest to it when the committed
    /// text differs in more than a small edit, with that base and edit
    /// (`None` if a parse timed out).
    fn count_pieces(&self, counter: &PieceCounter, bytes: &[u8]) -> Option<(PieceErrors, Closest)> {
        let closest = Bases::closest(&self.counted, bytes);
        let errors = match &closest {
            Some((base, edit)) => counter.count_edit(&base.errors, bytes, *edit)?,
            None => counter.count(bytes)?,
        };
        Some((errors, closest))
    }

    /// `bytes` with their `errors`, kept as an edit of the base they were
    /// counted from, if any: only a text kept is spliced.
    fn counted_text(&self, bytes: &[u8], errors: PieceErrors, closest: Closest) -> CountedText {
        let text = match closest {
            Some((base, edit)) => base.text.edited(edit, bytes, self.origin.as_ref()),
            None => Spliced::new(bytes),
        };
        CountedText { text, errors }
    }

    /// The verdict in pieces: at most as many errors as the input's.
    fn accepts_in_pieces(&self, counter: &PieceCounter, bytes: &[u8]) -> bool {
        let Some((errors, closest)) = self.count_pieces(counter, bytes) else {
            return false;
        };
        let accepted = errors.total() <= self.max_errors();
        if accepted {
            let counted = Arc::new(self.counted_text(bytes, errors, closest));
            self.counted.lock().expect("counted poisoned").keep(counted);
        }
        accepted
    }

    /// Makes `bytes` the text candidates are counted in pieces from.
    fn rebase_pieces(&self, counter: &PieceCounter, bytes: &[u8]) {
        let known = self.counted.lock().expect("counted poisoned").with(bytes);
        let base = known.or_else(|| {
            let (errors, closest) = self.count_pieces(counter, bytes)?;
            Some(Arc::new(self.counted_text(bytes, errors, closest)))
        });
        self.counted.lock().expect("counted poisoned").committed = base;
    }
}

impl SyntaxFilter for SyntaxCheck {
    fn accepts(&self, bytes: &[u8]) -> bool {
        let bytes = &*self.blanked(bytes);
        if let Some(counter) = &self.pieces {
            return self.accepts_in_pieces(counter, bytes);
        }
        // A stretch that parses means no errors at all. One that does not
        // settles nothing: an edit may join the items it touches to their
        // neighbours (`int ;` `f() {}` minus the `;`; a deleted `}` joins
        // every item up to the next one that closes it), leaving a
        // stretch that does not parse alone in a text that parses; and as
        // which stretch is cut depends on the committed text, its answer
        // would depend on the path taken (-j 3 committed other steps than
        // -j 1). The whole candidate is parsed then.
        if self.local_verdict(bytes) == Some(true) {
            return true;
        }
        let Some(tree) = self.parse(bytes) else {
            return false;
        };
        let accepted = count_errors(tree.root_node()) <= self.max_errors();
        self.keep_if_accepted(bytes, tree, accepted)
    }

    /// Missing tokens are free; error regions may not outnumber the
    /// parent's (which may hold one an implied token's deletion left) or
    /// the input's, unless the candidate only deletes implied tokens.
    fn accepts_lenient(&self, bytes: &[u8], parent: &[u8]) -> bool {
        let (bytes, parent) = (&*self.blanked(bytes), &*self.blanked(parent));
        let Some(parent) = self.base_of(parent) else {
            return false;
        };
        let edit = byte_edit(&parent.text, bytes);
        if edit
            .as_ref()
            .is_some_and(|e| self.deletes_only_implied_tokens(&parent, e))
            || self.local_verdict(bytes) == Some(true)
        {
            return true;
        }
        let Some(tree) = self.parse(bytes) else {
            return false;
        };
        let allowed = count_error_regions(parent.tree.root_node()).max(self.max_errors());
        let accepted = count_error_regions(tree.root_node()) <= allowed
            || edit
                .as_ref()
                .is_some_and(|e| self.parses_with_implied_text(e, bytes, &tree, allowed));
        self.keep_if_accepted(bytes, tree, accepted)
    }

    fn rebase(&self, bytes: &[u8]) {
        let bytes = &*self.blanked(bytes);
        if let Some(counter) = &self.pieces {
            self.rebase_pieces(counter, bytes);
            if !self.language.grammar().consumers_accept_more {
                // Only the lenient check, for such languages, parses whole.
                return;
            }
        }
        // A committed candidate was usually accepted (and parsed) just before.
        let known = self
            .bases
            .lock()
            .expect("bases poisoned")
            .recent_with(bytes);
        let base = known.or_else(|| self.parse(bytes).map(|tree| Base::new(bytes, tree)));
        self.bases.lock().expect("bases poisoned").committed = base;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::testing::XorShift;

    #[test]
    fn a_check_for_an_input_allows_its_errors_however_its_tree_counted_them() {
        let cpp = Language::named("cpp");
        let input = b"namespace std __attribute__ ((__visibility__ (\"default\")))\n{ int a; }\n\
                      extern template class basic_string<char>;\nint b = = ;\n";
        let whole = SyntaxCheck::new(cpp, usize::MAX).errors_in(input).unwrap();
        assert!(whole >= 2, "{whole}");
        // A tree built in pieces may count fewer errors than a whole parse.
        let check = SyntaxCheck::for_input(cpp, input, whole - 1);
        assert!(check.accepts(input));
        let worse = b"int a = ) ; ] int b = ( ; } int c = ] ; ) int d = } ; {";
        assert!(SyntaxCheck::new(cpp, 0).errors_in(worse).unwrap() > whole);
        assert!(!check.accepts(worse));
        // Or more: then those are allowed.
        let lenient = SyntaxCheck::for_input(cpp, input, whole + 5);
        assert!(lenient.accepts(input));
    }

    /// errors counted must still be a fresh parse's.
    #[test]
    fn candidates_of_accepted_candidates_count_the_errors_a_fresh_parse_counts() {
        let text = include_str!("../fixtures/json-deep/config.json").as_bytes();
        let fresh = SyntaxCheck::new(Language::named("json"), usize::MAX);
        let incremental = SyntaxCheck::new(Language::named("json"), usize::MAX);
        incremental.rebase(text);
        let mut rng = XorShift::new(11);
        for _ in 0..20 {
            // A deletion near the start, accepted (and so kept as a base)...
            let mut first = text.to_vec();
            let at = rng.below(2000) as usize;
            first.drain(at..at + 1 + rng.below(30) as usize);
            assert!(incremental.accepts(&first));
            // ... and one near the end of that candidate.
            let mut second = first.clone();
            let at = second.len() - 1 - rng.below(2000) as usize;
            let end = (at + 1 + rng.below(30) as usize).min(second.len());
            second.drain(at..end);
            assert_eq!(incremental.errors_in(&second), fresh.errors_in(&second));
        }
    }

    /// The incremental parse is an optimisation only: on random deletions
    /// (of one range and of several) from real C and JSON, relative to a
    /// base that itself moves, it counts the errors a fresh parse counts.
    #[test]
    fn incremental_check_counts_the_errors_a_fresh_parse_counts() {
        let inputs = [
            (
                Language::named("c"),
                include_str!("../fixtures/c-crash/crash.c"),
            ),
            (
                Language::named("json"),
                include_str!("../fixtures/json-deep/config.json"),
            ),
        ];
        let mut rng = XorShift::new(7);
        for (lang, text) in inputs {
            let fresh = SyntaxCheck::new(lang, 0).parsing_whole();
            let incremental = SyntaxCheck::new(lang, 0).parsing_whole();
            let mut base = text.as_bytes().to_vec();
            incremental.rebase(&base);
            let mut disagreements = Vec::new();
            for round in 0..60 {
                let mut candidate = base.clone();
                for _ in 0..1 + rng.below(3) {
                    if candidate.is_empty() {
                        break;
                    }
                    let start = rng.below(candidate.len() as u64) as usize;
                    let len = 1 + rng.below(40.min(candidate.len() - start) as u64) as usize;
                    candidate.drain(start..start + len);
                }
                let (a, b) = (
                    fresh.errors_in(&candidate),
                    incremental.errors_in(&candidate),
                );
                if a != b {
                    disagreements.push((round, a, b));
                }
                // Every fourth candidate becomes the new base, as commits do.
                if round % 4 == 0 {
                    base = candidate;
                    incremental.rebase(&base);
                }
            }
            assert!(
                disagreements.is_empty(),
                "{}: {disagreements:?}",
                lang.name()
            );
        }
    }

    /// C and C++ are judged by their errors counted in pieces: a function
    /// of the candidate alone, so the same whatever text was committed
    /// before it (which differs between `-j 1` and `-j N`), even on a text
    /// with errors, where whole incremental parses may differ.
    #[test]
    fn a_candidate_in_pieces_is_judged_alike_whatever_was_committed_before_it() {
        let cpp = include_str!("../fixtures/cpp-template/registry.cpp").replacen(
            "namespace app {",
            "namespace app { int f(int) = delete;",
            1,
        );
        let lang = Language::named("cpp");
        let allowed = 2;
        let fresh = SyntaxCheck::new(lang, allowed);
        let moving = SyntaxCheck::new(lang, allowed);
        let mut rng = XorShift::new(17);
        let (mut accepted, mut refused) = (0, 0);
        let mut base = cpp.as_bytes().to_vec();
        for _ in 0..600 {
            let mut candidate = base.clone();
            let start = rng.below(candidate.len() as u64) as usize;
            let end = (start + 1 + rng.below(60) as usize).min(candidate.len());
            candidate.drain(start..end);
            let verdict = moving.accepts(&candidate);
            // A check that never saw a committed text: counted from scratch.
            fresh.counted.lock().unwrap().recent.clear();
            assert_eq!(verdict, fresh.accepts(&candidate));
            if verdict {
                accepted += 1;
                if rng.below(2) == 0 {
                    base = candidate;
                    moving.rebase(&base);
                }
            } else {
                refused += 1;
            }
        }
        assert!(
            accepted > 100 && refused > 100,
            "{accepted} accepted, {refused} refused"
        );
    }

    /// GNU attributes on a namespace are blanked: the namespace parses as
    /// one, and an edit in it is judged on the items it touches.
    #[test]
    fn attributes_on_a_namespace_are_read_as_spaces() {
        let cpp = include_str!("../fixtures/cpp-template/registry.cpp").replacen(
            "namespace app {",
            "namespace app __attribute__ ((__visibility__ (\"default\"))) {",
            1,
        );
        let lang = Language::named("cpp");
        let check = SyntaxCheck::for_input(lang, cpp.as_bytes(), 3).parsing_whole();
        assert_eq!(check.errors_in(cpp.as_bytes()), Some(0));
        check.rebase(cpp.as_bytes());
        assert_eq!(check.max_errors(), 0);
        let sum = "int sum(int a, int b, int c) { return a + b + c; }";
        let blanked = check.blanked(cpp.replace(sum, "").as_bytes()).into_owned();
        assert_eq!(check.local_verdict(&blanked), Some(true));
        assert!(check.accepts(cpp.replace(sum, "").as_bytes()));
        // Half an attribute stays, and is an error.
        let half = cpp.replace("(\"default\")))", "");
        assert!(!check.accepts(half.as_bytes()));
    }

    /// Runs 400 random cuts of `text` (arbitrary bytes, whole lines, two at
    /// once) against a base that moves to every third accepted candidate;
    /// asserts the local check never disagrees with a whole parse; returns
    /// how many cuts it judged and how many parse.
    fn local_verdicts_against_whole_parses(lang: Language, text: &str, seed: u64) -> (u32, u32) {
        let whole = SyntaxCheck::new(lang, 0);
        let local = SyntaxCheck::new(lang, 0).parsing_whole();
        let mut base = text.as_bytes().to_vec();
        assert_eq!(whole.errors_in(&base), Some(0));
        local.rebase(&base);
        let mut rng = XorShift::new(seed);
        let (mut checked_locally, mut accepted) = (0, 0);
        for round in 0..400 {
            let mut candidate = base.clone();
            for _ in 0..1 + rng.below(2) {
                if candidate.is_empty() {
                    break;
                }
                let mut start = rng.below(candidate.len() as u64) as usize;
                let mut end =
                    start + 1 + rng.below(60.min(candidate.len() - start) as u64) as usize;
                if round % 2 == 0 {
                    // Whole lines.
                    start = candidate[..start]
                        .iter()
                        .rposition(|&b| b == b'\n')
                        .map_or(0, |i| i + 1);
                    end = candidate[end.min(candidate.len())..]
                        .iter()
                        .position(|&b| b == b'\n')
                        .map_or(candidate.len(), |i| end + i + 1);
                }
                candidate.drain(start..end.min(candidate.len()));
            }
            let truth = whole.errors_in(&candidate) == Some(0);
            if let Some(verdict) = local.local_verdict(&candidate) {
                checked_locally += 1;
                // A stretch that parses settles it; one that does not is
                // only a hint (the check parses the candidate whole then).
                assert!(!verdict || truth, "{}, round {round}", lang.name());
            }
            assert_eq!(
                local.accepts(&candidate),
                truth,
                "{}, round {round}",
                lang.name()
            );
            if truth {
                accepted += 1;
                if round % 3 == 0 {
                    base = candidate;
                    local.rebase(&base);
                }
            }
        }
        (checked_locally, accepted)
    }

    /// The check on the items or list elements an edit touches is an
    /// optimisation only: on random cuts from real C and JSON it gives the
    /// verdict of a whole parse (it may refuse more only in the rare case
    /// its comment explains, which these cuts do not make).
    #[test]
    fn the_items_or_elements_an_edit_touches_give_the_verdict_a_whole_parse_gives() {
        let c = include_str!("../fixtures/c-crash/crash.c");
        let (checked, accepted) = local_verdicts_against_whole_parses(Language::named("c"), c, 11);
        assert!(
            checked > 300 && accepted > 20,
            "C: {checked} checked, {accepted} parse"
        );
        let json = include_str!("../fixtures/json-deep/config.json");
        let (checked, accepted) =
            local_verdicts_against_whole_parses(Language::named("json"), json, 12);
        // (Two cuts far apart in this 100 KB file span more than the
        // stretch limit: about half the rounds are parsed whole.)
        assert!(
            checked > 150 && accepted > 20,
            "JSON: {checked} checked, {accepted} parse"
        );
        // An edit of the document's own brackets is parsed whole.
        let check = SyntaxCheck::new(Language::named("json"), 0);
        check.rebase(b"[1, 2, 3]");
        assert_eq!(check.local_verdict(b"[1, 2, 3"), None);
        assert_eq!(check.local_verdict(b"[1, 3]"), Some(true));
        assert_eq!(check.local_verdict(b"[1, , 3]"), Some(false));
    }

    /// Inside namespaces, class bodies and function bodies too: C++ cuts
    /// are judged on the items around them in the innermost list.
    #[test]
    fn the_items_an_edit_touches_in_a_block_or_namespace_give_the_verdict_a_whole_parse_gives() {
        let cpp = include_str!("../fixtures/cpp-template/registry.cpp");
        let (checked, accepted) =
            local_verdicts_against_whole_parses(Language::named("cpp"), cpp, 13);
        assert!(
            checked > 300 && accepted > 20,
            "C++: {checked} checked, {accepted} parse"
        );
        // An edit inside a function's body, in a namespace, in a file
        // whose first item is too large to be a stretch: judged on the
        // statements around it, which fail to parse here.
        let filler = "int f0() { return 0; }\n".repeat(1000);
        let text = format!("namespace n {{ {filler} int g() {{ int a; int b; return a; }} }}");
        let check = SyntaxCheck::new(Language::named("cpp"), 0).parsing_whole();
        check.rebase(text.as_bytes());
        let fine = text.replace("int b; ", "");
        assert_eq!(check.local_verdict(fine.as_bytes()), Some(true));
        let broken = text.replace("int b; ", "int b ");
        assert_eq!(check.local_verdict(broken.as_bytes()), Some(false));
        assert!(!check.accepts(broken.as_bytes()));
    }

    /// On a text with parse errors, a candidate is judged on the items
    /// around its edits where the items on either side have none, whatever
    /// the items it touches and the list's other items have. Random cuts
    /// of a C++ file with errors between a namespace's items, inside its
    /// items (a function body, a class's member) and at the top level:
    /// what the local check accepts, a whole parse accepts, also where the
    /// cut takes an item with errors along.
    #[test]
    fn on_a_text_with_errors_the_items_an_edit_touches_decide_between_items_without_errors() {
        let cpp = include_str!("../fixtures/cpp-template/registry.cpp")
            .replacen("namespace app {", "namespace app {\nint @@ x;\n", 1)
            .replacen("namespace util {", "= = =;\nnamespace util {", 1)
            .replacen("return to;", "return to to;", 1)
            .replacen("return input + id;", "return input + ;", 1);
        let lang = Language::named("cpp");
        let whole = SyntaxCheck::new(lang, usize::MAX);
        let allowed = whole.errors_in(cpp.as_bytes()).unwrap();
        assert!(allowed >= 2, "{allowed}");
        let local = SyntaxCheck::new(lang, allowed).parsing_whole();
        local.rebase(cpp.as_bytes());
        let lines: Vec<&str> = cpp.split_inclusive('\n').collect();
        let mut rng = XorShift::new(17);
        let (mut checked, mut fewer, mut wrong) = (0, 0, Vec::new());
        for round in 0..3000 {
            // A cut of up to 40 bytes, or of up to 8 whole lines (which
            // may take an item with errors along).
            let candidate = if round % 2 == 0 {
                let mut candidate = cpp.as_bytes().to_vec();
                let start = rng.below(candidate.len() as u64) as usize;
                let end = (start + 1 + rng.below(40) as usize).min(candidate.len());
                candidate.drain(start..end);
                candidate
            } else {
                let start = rng.below(lines.len() as u64) as usize;
                let end = (start + 1 + rng.below(8) as usize).min(lines.len());
                let kept = lines[..start].iter().chain(&lines[end..]);
                kept.flat_map(|line| line.bytes()).collect()
            };
            if local.local_verdict(&candidate) == Some(true) {
                checked += 1;
                let errors = whole.errors_in(&candidate).unwrap();
                fewer += usize::from(errors < allowed);
                if errors > allowed {
                    wrong.push(round);
                }
            }
        }
        assert!(
            checked > 500 && fewer > 30,
            "{checked} accepted locally, {fewer} with fewer errors"
        );
        assert!(
            wrong.is_empty(),
            "accepted with more errors: rounds {wrong:?}"
        );
    }

    #[test]
    fn an_edit_that_joins_two_items_is_judged_with_the_items_around_them() {
        // Deleting the `;` joins `int` to the function after it: the
        // stretch around the edit, `int `, does not parse alone; with the
        // item after it, it does, as the whole candidate does.
        let candidate = b"int f0(int ) { }\nint f1(a, b) { }\n";
        let check = SyntaxCheck::new(Language::named("c"), 0);
        check.rebase(b"int ;\nf0(int ) { }\nint f1(a, b) { }\n");
        assert_eq!(check.local_verdict(candidate), Some(true));
        assert!(check.accepts(candidate));
        assert!(SyntaxCheck::new(Language::named("c"), 0).accepts(candidate));
    }

    #[test]
    fn the_syntax_check_rejects_candidates_with_more_parse_errors() {
        let check = SyntaxCheck::new(Language::named("c"), 0);
        assert!(!check.accepts(b"int x = ;"));
        assert!(check.accepts(b"int x;"));
        assert!(check.accepts(b""));
        assert!(check.accepts(b"int main(void) { return 0; }"));
        let lenient = SyntaxCheck::new(Language::named("c"), 5);
        assert!(lenient.accepts(b"int x = ;"));
        let json = SyntaxCheck::new(Language::named("json"), 0);
        assert!(json.accepts(b"[1, 3]"));
        assert!(!json.accepts(b"[1, , 3]"));
    }

    #[test]
    fn missing_tokens_and_deleted_implied_types_pass_the_lenient_check_error_regions_do_not() {
        let parent = "int f ( ) { return 0 ; }\nstruct s { int a , b ; } ;\n";
        let check = SyntaxCheck::new(Language::named("c"), 0);
        let lenient =
            |text: &str, parent: &str| check.accepts_lenient(text.as_bytes(), parent.as_bytes());
        let strict = |text: &str| check.accepts(text.as_bytes());
        // A missing `;` before `}`: a MISSING node, no error region.
        let no_semicolon = "int f ( ) { return 0 ; }\nstruct s { int a , b } ;\n";
        assert!(lenient(no_semicolon, parent) && !strict(no_semicolon));
        // The return type gone (implicit int): tree-sitter-c makes the
        // function an error region, but the deleted token is implied.
        let implicit_int = "f ( ) { return 0 ; }\nstruct s { int a , b ; } ;\n";
        assert_eq!(check.error_regions_in(implicit_int.as_bytes()), Some(1));
        assert!(lenient(implicit_int, parent) && !strict(implicit_int));
        // A member's name gone leaves `int a , ;`: an error region.
        let stray_comma = "int f ( ) { return 0 ; }\nstruct s { int a , ; } ;\n";
        assert!(!lenient(stray_comma, parent));
        // The function's name gone: a MISSING identifier, so it passes
        // (the compiler will say no).
        let no_name = "int ( ) { return 0 ; }\nstruct s { int a , b ; } ;\n";
        assert!(lenient(no_name, parent) && !strict(no_name));
        // A parameter's name gone from a function whose return type went
        // before: `f ( x )` read as a type and a declarator becomes an
        // error region, but with the implied `int` back it parses.
        let knr = "f ( x ) { return 0 ; }\nstruct s { int a , b ; } ;\n";
        assert_eq!(check.error_regions_in(knr.as_bytes()), Some(0));
        let no_parameter = "f ( ) { return 0 ; }\nstruct s { int a , b ; } ;\n";
        assert!(lenient(no_parameter, knr) && !strict(no_parameter));
        // Putting it back does not excuse an error region elsewhere.
        assert!(!lenient(
            "f ( ) { return 0 ; }\nstruct s { int a , ; } ;\n",
            knr
        ));
        // From a parent with an error region, a candidate may keep it, not
        // add one; whatever text is committed meanwhile.
        check.rebase(no_semicolon.as_bytes());
        let parent = implicit_int;
        assert!(lenient(
            "f ( ) { return 0 ; }\nstruct s { int a , b } ;\n",
            parent
        ));
        assert!(!lenient(
            "f ( ) { return 0 ; }\nstruct s { int a , } ;\n",
            parent
        ));
    }
}
