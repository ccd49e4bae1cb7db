#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
# tree-check.py ROOT DEPTH MIN_GAMES: pgn-tree's --tsv table computed
# another way, for tests/cli-pgn-tree.sh: from pgn2json --fens lines on
# standard input (each game's start, FEN after every ply, SAN moves,
# result and tags), positions compared as EPD (placement, side,
# castling, the en passant square where a pawn of the side to move
# stands beside the pushed pawn), each (position, move) counted once a
# game; then the tree walked from ROOT (a FEN) DEPTH plies deep over
# the moves of MIN_GAMES games or more, sorted by games then SAN.
import json
import sys


def epd(fen):
    f = fen.split()
    place, side, castle, ep = f[0], f[1], f[2], f[3]
    if ep != '-':
        rows = place.split('/')     # rows[0] is rank 8

        def at(file, rank):
            r = rows[8 - rank]
            c = 0
            for ch in r:
                if ch.isdigit():
                    c += int(ch)
                    continue
                if c == file:
                    return ch
                c += 1
            return None
        file = ord(ep[0]) - ord('a')
        rank = 5 if side == 'w' else 4     # the pushed pawn's rank
        pawn = 'P' if side == 'w' else 'p'
        if not any(0 <= x < 8 and at(x, rank) == pawn
                   for x in (file - 1, file + 1)):
            ep = '-'
    return (place, side, castle, ep), int(f[5]) if len(f) > 5 else 1


def pawns(place):
    # the squares of the pawns of each color, and the number of men
    sq, n, out = 0, 0, set()
    for ch in place:
        if ch == '/':
            continue
        if ch.isdigit():
            sq += int(ch)
            continue
        n += 1
        if ch in 'Pp':
            out.add((ch, sq))
        sq += 1
    return out, n


def rating(tags, name):
    v = tags.get(name, '')
    if 0 < len(v) <= 5 and v.isdigit() and int(v) > 0:
        return int(v)
    return 0


def norm_date(d):
    out = list('????.??.??')
    for k in range(min(10, len(d))):
        if k in (4, 7):
            if d[k] == '.':
                out[k] = '.'
        elif '0' <= d[k] <= '9':
            out[k] = d[k]
    return ''.join(out)


def date_key(d):
    return [ord('0') - 1 if c == '?' else ord(c) for c in d]


def main():
    root = epd(sys.argv[1])[0]
    depth = int(sys.argv[2])
    min_games = int(sys.argv[3])
    # a position DEPTH - 1 plies or fewer from the root has lost at
    # most that many men (a capture cannot be undone), and its pawns
    # stand on squares that differ from the root's in at most 3 a ply
    # (en passant); the others need no counting
    root_pawns, root_men = pawns(root[0])
    st = {}
    bypos = {}
    after = {}
    for index, line in enumerate(sys.stdin, 1):
        g = json.loads(line)
        tags = g['tags']
        res = g['result']
        welo, belo = rating(tags, 'WhiteElo'), rating(tags, 'BlackElo')
        date = norm_date(tags.get('Date', ''))
        year = int(date[:4]) if '?' not in date[:4] else 0
        fens = [g['start']] + g.get('fens', [])
        seen = set()
        for ply, san in enumerate(g['moves']):
            pos, _ = epd(fens[ply])
            p, men = pawns(pos[0])
            if men < root_men - (depth - 1):
                break
            if san == '--' or len(p ^ root_pawns) > 3 * (depth - 1):
                continue
            after[(pos, san)] = fens[ply + 1]
            if (pos, san) in seen:
                continue
            seen.add((pos, san))
            if (pos, san) not in st:
                bypos.setdefault(pos, []).append(san)
            s = st.setdefault((pos, san), dict(
                games=0, w=0, d=0, b=0, elo=0, elon=0, opp=0, oppn=0,
                pd=0, pn=0, po=0, fy=0, ly=0, latest=None))
            white = pos[1] == 'w'
            own, opp = (welo, belo) if white else (belo, welo)
            s['games'] += 1
            score = None
            if res == '1-0':
                s['w'] += 1
                score = 1 if white else -1
            elif res == '0-1':
                s['b'] += 1
                score = -1 if white else 1
            elif res == '1/2-1/2':
                s['d'] += 1
                score = 0
            if own:
                s['elo'] += own
                s['elon'] += 1
            if opp:
                s['opp'] += opp
                s['oppn'] += 1
                if score is not None:
                    s['pn'] += 1
                    s['po'] += opp
                    s['pd'] += score
            if year:
                s['fy'] = year if not s['fy'] else min(s['fy'], year)
                s['ly'] = max(s['ly'], year)
            key = (date_key(date), index)
            if s['latest'] is None or key > s['latest'][0]:
                s['latest'] = (key, tags.get('White') or '?',
                               tags.get('Black') or '?',
                               tags.get('Event') or '?', date)
    out = sys.stdout
    out.write('line\tmove\tgames\twhite\tdraws\tblack\tscore\telo\t'
              'opponent_elo\tperformance\tfirst_year\tlast_year\t'
              'last_white\tlast_black\tlast_event\tlast_date\n')

    def walk(pos, fullmove, left, line):
        rows = [(san, st[(pos, san)]) for san in bypos.get(pos, [])
                if st[(pos, san)]['games'] >= min_games]
        rows.sort(key=lambda r: (-r[1]['games'], r[0].encode()))
        for san, s in rows:
            decided = s['w'] + s['d'] + s['b']
            wins = s['w'] if pos[1] == 'w' else s['b']
            cells = [line, san, s['games'], s['w'], s['d'], s['b'],
                     '%.1f' % (100.0 * (wins + s['d'] / 2) / decided)
                     if decided else '',
                     (s['elo'] + s['elon'] // 2) // s['elon']
                     if s['elon'] else '',
                     (s['opp'] + s['oppn'] // 2) // s['oppn']
                     if s['oppn'] else '',
                     '%.0f' % (s['po'] / s['pn'] + 400.0 * s['pd'] /
                               s['pn']) if s['pn'] else '',
                     s['fy'] or '', s['ly'] if s['fy'] else '']
            cells += list(s['latest'][1:])
            out.write('\t'.join(str(c) for c in cells) + '\n')
            if left > 1:
                num = ('%d. ' % fullmove if pos[1] == 'w' else
                       '%d... ' % fullmove if not line else '')
                nxt = epd(after[(pos, san)])[0]
                walk(nxt, fullmove + (pos[1] == 'b'), left - 1,
                     (line + ' ' if line else '') + num + san)
    walk(root, epd(sys.argv[1])[1], depth, '')


main()
