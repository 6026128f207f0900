"""The conditions the scaling benchmark and the tests ask about, written once: the reliability
review's hard queries (ten overlapping conditions each, then more), on Planetary
Conquerors' ``legal-80.txt``, the Star Trek CCG decks built from the catalog and Ren Dhark's
``terra-custom.txt``. Plain data, no imports: the tests load it by its path."""

from __future__ import annotations

#: The ten overlapping conditions of the reliability review, then ten more.
PC_CONDITIONS = [
    "type:warrior>=1",
    "type:building>=1",
    "type:miner>=1",
    "rarity:1>=2",
    "rarity:2>=1",
    "rarity:3<=1",
    "name:Trooper>=1",
    "cost_gold:2>=1",
    "cost_cosmium:1>=1",
    "lives:3<=2",
    "type:spell<=2",
    "type:trap<=1",
    "cost_gold:1>=1",
    "cost_cosmium:2>=1",
    "cost_electricity:1>=1",
    "cost_gold:0<=2",
    "cost_cosmium:0>=1",
    "rarity:1<=8",
    "lives:6<=1",
    "attack:1<=1",
]
STCCG_CONDITIONS = [
    "type:Personnel>=2",
    "type:Ship>=1",
    "type:Event>=1",
    "type:Interrupt>=1",
    "type:Equipment<=1",
    "affiliation:Federation>=1",
    "affiliation:Klingon>=1",
    "affiliation:Romulan<=1",
    "rarity:C>=1",
    "rarity:U>=1",
    "rarity:R<=2",
    "rarity:V>=1",
    "icons:Stf>=1",
    "icons:Cmd>=1",
    "icons:AU<=1",
    "type:Incident<=1",
    "affiliation:Non-Aligned>=1",
    "type:Objective<=1",
    "rarity:P<=1",
    "icons:DQ<=1",
]
RD_CONDITIONS = [
    "type:ship>=2",
    "type:action<=3",
    "type:person>=1",
    "type:unit>=1",
    "faction:Terra>=1",
    "faction:Nogkové<=1",
    "faction:Strážci<=1",
    "colour:blue>=3",
    "type:ship<=5",
    "type:unit<=3",
]

#: The frontier's overlapping attribute selectors (``bench_frontier.py --attributes``), per
#: game: twelve conditions over the game's own fields, each card counted by several of them
#: (a Planetary Conquerors warrior is also of some rarity, gold cost, lives...), the operators
#: ``>=``, ``<=`` and ``=`` mixed from the start. Every selector matches cards of the bundled
#: decks the frontier asks about (both decks of a game). Dorn's list spans its three piles'
#: fields (rituals: blood cost and number; blessings: number; heroes: recommended), so each
#: pile counts none for the others' selectors; The Drake's stack shows one card (its leader)
#: and has three fields to count.
ATTRIBUTE_CONDITIONS = {
    "planetary-conquerors": [
        "type:warrior>=1",
        "rarity:1>=2",
        "cost_gold:2=1",
        "type:building>=1",
        "lives:3<=2",
        "cost_cosmium:1=1",
        "type:miner>=1",
        "rarity:2>=1",
        "attack:1<=1",
        "cost_gold:1>=1",
        "rarity:3<=1",
        "type:spell=0",
    ],
    "ren-dhark": [
        "type:ship>=2",
        "faction:Terra>=1",
        "type:person=1",
        "type:action<=3",
        "colour:blue>=3",
        "faction:Babylon<=1",
        "faction:Nogkové<=3",
        "type:unit>=1",
        "faction:Terra<=14",
        "faction:Strážci=0",
        "type:ship<=9",
        "faction:Synteti=0",
    ],
    "stccg-1e": [
        "type:Personnel>=2",
        "rarity:R>=1",
        "icons:Cmd=1",
        "type:Ship>=1",
        "keywords:Male<=3",
        "rarity:U=1",
        "type:Event>=1",
        "keywords:Mission Specialist>=1",
        "affiliation:Non-Aligned<=1",
        "icons:Stf>=1",
        "universal:True=1",
        "type:Interrupt<=1",
    ],
    "dorn": [
        "blood_cost:3>=1",
        "number:1<=0",
        "blood_cost:6=1",
        "number:2>=1",
        "blood_cost:4<=1",
        "number:3=0",
        "blood_cost:5>=1",
        "number:4<=0",
        "blood_cost:2=0",
        "number:5>=1",
        "recommended:True>=2",
        "recommended:False<=1",
    ],
    "the-drake": ["type:troop>=1", "back_pivot:1<=1", "front_pivot:1=1"],
}
