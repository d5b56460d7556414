"""The constructs of the ninth round of --features (tests/fuzz/gen.py,
README.md), a mixin of features.Ext:

'gotodone' (822310a): a goto into a block whose statements from the label
on leave by a `goto` to a label around both, cephes incbi's `if (x <= 0.0)
{ under: mtherr(...); x = 0.0; goto done; }` reached from before and from
inside a loop: at the top level `if (c) { ...; under: [p = ...;] [if (c2)
return e;] goto done; }` (also one `if` deeper), the statements from the
label on reading only the parameters and the scalars declared before at
the top level (a goto from elsewhere sees no local of the block), reached
by `goto under;` from a loop before the block (as incbi's Newton loop),
from an `if (c) goto under;` just before it and from anywhere after it
(loops, switches, retry blocks: backward); `done:` is either just before
the final return (which reads only what every path has: the parameters,
tables and globals; incbi's `done: return x;`) or after it, with a return
of its own. Not in functions with a walked parameter (no goto there).

It draws random numbers only when enabled: the output of the other
features (the eighth round's list among them) does not change."""
from markers import Scope

NEW9 = ("gotodone",)


class SExt:
    """Mixin of features.Ext (self.r, self.f)."""

    def son(self):
        return bool(self.f & set(NEW9))

    @staticmethod
    def sattach(g):
        # the label the blocks' statements leave to, and whether it comes
        # before the final return ('b') or after it ('a'); None: none yet
        g.sdone = None
        g.slabels = []  # the blocks' labels, once their blocks are made

    # ------------------------------------------------------------ stmts
    def sstmt(self, g, ind, in_loop):
        """A statement of the ninth round, or False."""
        r = self.r.random()
        if r < 0.3 and ind == 1 and not g.loop_depth and \
                not g.switch_depth and not g.nogoto and not g.is_helper and \
                len(g.tlabels) < 2:
            self.done_block(g, ind)
            return True
        if 0.3 <= r < 0.36 and getattr(g, "slabels", None):
            # backward, from anywhere after the block (loops, switches,
            # retry blocks), as incbi's second `goto under;`
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "goto %s;" % self.r.choice(g.slabels))
            return True
        return False

    @staticmethod
    def top_scalars(g):
        """The scalars declared so far at the top level (g.scope at ind 1:
        the function body's block): declared before every goto to the
        label, and initialised where declared."""
        return [(nm, v) for nm, v in g.scope.vars.items()
                if v[0] == "v" and v[1] in ("f", "d", "i")]

    @staticmethod
    def tail_scope(g, top):
        """The parameters (read-only as in the function's outermost scope
        now: a BD_NODIFF one whose bits were rebuilt meanwhile too) and
        top (top_scalars before the block)."""
        root = g.scope
        while root.parent:
            root = root.parent
        sc = Scope()
        for (nm, t, _u, _nd) in g.params:
            ro = nm in g.nd_bits or root.vars.get(nm, ("v", t, False))[2]
            sc.vars[nm] = ("v", t, ro, 0)
        for nm, v in top:
            sc.vars[nm] = v
        return sc

    def pre_loop(self, g, ind, lab):
        """A loop before the block, leaving into it: `for (...) { ...; if
        (c) goto under; ... }` (incbi's Newton loop)."""
        n, i = g.fresh("n"), g.fresh("i")
        g.loop_depth += 1
        g.emit(ind, "{")
        g.push()
        g.emit(ind + 1, "int %s = %s;" % (n, g.trip_expr()))
        g.scope.vars[n] = ("v", "i", True, 0)
        g.emit(ind + 1, "for (int %s = 0; %s < %s; %s++) {" % (i, i, n, i))
        g.push()
        g.scope.vars[i] = ("v", "i", True, 0)
        fw = g.vars_of("fd", writable=True)
        if fw:
            acc, t = self.r.choice(fw)
            g.emit(ind + 2, "%s = %s * %s + %s;" % (
                acc, acc, g.lit_exact(t, self.r.choice([0.5, -0.5, 0.25])),
                g.fexpr(t, 1)))
        g.block(ind + 2, True, self.r.randint(0, 2))
        g.emit(ind + 2, "if (%s)" % g.cond(side=True))
        g.emit(ind + 3, "goto %s;" % lab)
        g.block(ind + 2, True, self.r.randint(0, 1))
        g.pop()
        g.emit(ind + 1, "}")
        g.pop()
        g.emit(ind, "}")
        g.loop_depth -= 1

    def done_block(self, g, ind):
        """if (c) { ...; L: [p = ...;] [if (c2) return e;] goto done; }
        whose statements from L on read the parameters and earlier
        top-level scalars only: gotos before it (in a loop, or just
        before) and later ones reach L."""
        lab = g.fresh("under")
        if g.sdone is None:
            g.sdone = (g.fresh("done"), self.r.choice("ba"))
        done = g.sdone[0]
        top = self.top_scalars(g)
        # gotos to L from here on: in the loop before, the block's own
        # statements before L, anywhere after it
        g.tlabels.append(lab)
        how = self.r.random()
        if how < 0.4:
            self.pre_loop(g, ind, lab)
        elif how < 0.7:
            g.emit(ind, "if (%s)" % g.cond(side=True))
            g.emit(ind + 1, "goto %s;" % lab)
        g.emit(ind, "if (%s) {" % g.cond(side=True))
        g.block(ind + 1, False, self.r.randint(0, 2))
        deep = self.r.random() < 0.3
        i1 = ind + 1
        if deep:
            g.emit(i1, "if (%s) {" % g.cond(side=True))
            i1 += 1
        saved = g.scope
        g.scope = self.tail_scope(g, top)
        g.emit(i1 - 1, "%s:" % lab)
        fw = g.vars_of("fd", writable=True)
        if fw and self.r.random() < 0.7:
            p, t = self.r.choice(fw)
            if self.r.random() < 0.3:
                g.emit(i1, "%s = %s;" % (p, g.lit(t)))  # incbi's x = 0.0
            else:
                g.emit(i1, "%s = %s * %s + %s;" % (
                    p, p, g.lit_exact(t, 0.5), g.fexpr(t, 1)))
        if self.r.random() < 0.3:
            g.emit(i1, "if (%s)" % g.cond(side=True))
            g.emit(i1 + 1, "return %s;" % g.ret_expr())
        g.emit(i1, "goto %s;" % done)
        g.scope = saved
        if deep:
            g.emit(ind + 1, "}")
            g.block(ind + 1, False, self.r.randint(0, 1))
        g.emit(ind, "}")
        g.slabels.append(lab)

    # ------------------------------------------------------------ end
    def sbefore_return(self, g):
        """`done:` just before the final return (no draw)."""
        sd = getattr(g, "sdone", None)
        if sd and sd[1] == "b":
            g.emit(0, "%s:" % g.sdone[0])

    def safter_return(self, g):
        """`done:` after the final return, with a return of its own (of
        what every path has: the final return's scope)."""
        sd = getattr(g, "sdone", None)
        if sd and sd[1] == "a":
            g.emit(0, "%s:" % g.sdone[0])
            g.emit(1, "return %s;" % g.ret_expr())
